// Command promptbench prints what a plain "hello" costs: the tokens of the
// first request's system prompt, tool definitions and user message, with
// every prompt-affecting capability on (trusted workspace, the built-in
// skills, a custom command, a hook, memory pointers and context files),
// once with a small AGENTS.md and once with a large one. The budget is
// 3000 tokens for the request without the large file (context files are
// the user's own text and go in the first user message only); the tools a
// turn rarely needs are offered behind one entry (tools.Offer), which the
// budget counts. It also prints the figures of each tool profile and of
// Plan mode, each of which must be byte-stable.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

func main() {
	budget := flag.Int("budget", Budget, "token budget of the hello request with a small AGENTS.md")
	perTool := flag.Bool("per-tool", false, "also print each tool definition's tokens, largest first")
	flag.Parse()
	smallAgents := strings.Repeat("Run `make test` before committing. Use gofmt.\n", 4)
	small, err := measure(smallAgents, "", "")
	if err != nil {
		fail(err)
	}
	large, err := measure(strings.Repeat("- Convention: keep handlers small, name files after what they hold, test every bad input.\n", 360), "", "")
	if err != nil {
		fail(err)
	}
	fmt.Printf("%-28s %8s %8s %8s %8s %6s\n", "hello request", "system", "tools", "user", "total", "tools#")
	for _, r := range []struct {
		name string
		m    figures
	}{{"small AGENTS.md", small}, {"large AGENTS.md (~30 KB)", large}} {
		fmt.Printf("%-28s %8d %8d %8d %8d %6d\n", r.name, r.m.system, r.m.tools, r.m.user, r.m.total(), r.m.count)
	}
	if *perTool {
		printPerTool(small.defs)
	}
	fmt.Printf("budget: %d tokens for the small-AGENTS.md request: %d (%.0f%%)\n", *budget, small.total(), 100*float64(small.total())/float64(*budget))
	if small.total() > *budget {
		fail(fmt.Errorf("the hello request is over budget"))
	}
	// Compared as text, not token counts: each run has its own temporary
	// directory, whose name the system prompt holds and whose length varies.
	if large.prompt != small.prompt || large.toolsJSON != small.toolsJSON {
		fail(fmt.Errorf("a large AGENTS.md changed the system prompt or tools; it belongs in the first user message only"))
	}
	// Each tool profile, and Plan mode, has its own prompt and tools; each
	// must be byte-stable (the second request of a session repeats the
	// first one's prefix).
	fmt.Printf("\n%-28s %8s %8s %8s %6s %s\n", "tool profile / mode", "system", "tools", "total", "tools#", "stable")
	for _, v := range variants {
		m, err := measure(smallAgents, v.profile, v.mode)
		if err != nil {
			fail(err)
		}
		fmt.Printf("%-28s %8d %8d %8d %6d %v\n", v.name, m.system, m.tools, m.total(), m.count, m.stable)
		if !m.stable {
			fail(fmt.Errorf("%s: the system prompt or tools changed between two requests", v.name))
		}
	}
}

// Budget is the first request: at most 3000 tokens for "hello"
// with a small AGENTS.md and every feature on.
const Budget = 3000

// variants are the tool profiles and modes whose figures are printed.
var variants = []struct{ name, profile, mode string }{
	{"full", "full", ""}, {"readonly", "readonly", ""}, {"Plan mode", "", "plan"},
	{"no-shell", "no-shell", ""}, {"read_file,grep_search,edit", "read_file,grep_search,edit", ""},
}

type figures struct {
	system, tools, user, count int
	// stable: a second turn's request repeated the first one's system
	// prompt and tool definitions byte for byte.
	stable bool
	// prompt is the system prompt with the run's temporary directory
	// replaced by a placeholder; toolsJSON the tool definitions.
	prompt, toolsJSON string
	defs              []scripted.Tool
}

func (f figures) total() int { return f.system + f.tools + f.user }

// measure sends "hello" and then "again" in one session; toolProfile, when
// set, is the model profile's tool profile, and mode the session's
// working mode.
func measure(agents, toolProfile, mode string) (figures, error) {
	model, err := scripted.New()
	if err != nil {
		return figures{}, err
	}
	defer model.Close()
	model.Enqueue(scripted.Reply{Text: "Hello!"}, scripted.Reply{Text: "Again!"})
	tmp, err := os.MkdirTemp("", "promptbench")
	if err != nil {
		return figures{}, err
	}
	defer os.RemoveAll(tmp)
	ws, home, state := filepath.Join(tmp, "ws"), filepath.Join(tmp, "home"), filepath.Join(tmp, "state")
	files := map[string]string{
		filepath.Join(ws, "AGENTS.md"):                                 agents,
		filepath.Join(ws, "main.go"):                                   "package main\n",
		filepath.Join(ws, ".govibe", "memory", "README.md"):            "Memory levels.\n",
		filepath.Join(ws, ".govibe", "commands", "ship.md"):            "---\ndescription: Ship\n---\nShip $ARGUMENTS\n",
		filepath.Join(home, ".govibe", "commands", "git", "commit.md"): "Commit: $ARGUMENTS\n",
	}
	for p, body := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return figures{}, err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return figures{}, err
		}
	}
	settings := config.Values{"apiBaseUrl": model.URL(), "model": "bench-model",
		"hooks": map[string]any{"PostToolUse": []any{map[string]any{"matcher": "", "hooks": []any{map[string]any{"type": "command", "command": "true"}}}}}}
	if toolProfile != "" {
		settings["model"] = "bench-profile"
		settings["models"] = []any{map[string]any{"name": "bench-profile", "model": "bench-model", "toolProfile": toolProfile}}
	}
	eng, err := engine.New(engine.Options{Roots: []string{ws}, StateDir: state, Settings: settings, APIKeys: map[string]string{"": "sk-bench"},
		Headless: true, Approve: "all", Trusted: true, Home: home, HostInfo: engine.HostInfo{OS: "linux", Shell: "bash"}})
	if err != nil {
		return figures{}, err
	}
	defer eng.Close()
	sess, err := eng.Sessions.Create(context.Background(), "")
	if err != nil {
		return figures{}, err
	}
	if mode != "" {
		if err := eng.Modes.Set(context.Background(), sess.ID, mode); err != nil {
			return figures{}, err
		}
	}
	sid, _, err := eng.Send(context.Background(), engine.SendParams{SessionID: sess.ID, Text: "hello"})
	if err != nil {
		return figures{}, err
	}
	eng.Wait(sid)
	if _, _, err := eng.Send(context.Background(), engine.SendParams{SessionID: sid, Text: "again"}); err != nil {
		return figures{}, err
	}
	eng.Wait(sid)
	reqs := model.Requests()
	if len(reqs) < 2 {
		return figures{}, fmt.Errorf("%d requests reached the model, want 2", len(reqs))
	}
	r := reqs[0]
	est := compact.Default()
	toolsJSON, _ := json.Marshal(r.Tools)
	tools2, _ := json.Marshal(reqs[1].Tools)
	stable := r.Messages[0].Content == reqs[1].Messages[0].Content && string(toolsJSON) == string(tools2)
	return figures{system: est.Text(r.Messages[0].Content), tools: est.Text(string(toolsJSON)), user: est.Text(r.LastUserMessage()), count: len(r.Tools), stable: stable,
		prompt: strings.ReplaceAll(r.Messages[0].Content, tmp, "<tmp>"), toolsJSON: strings.ReplaceAll(string(toolsJSON), tmp, "<tmp>"), defs: r.Tools}, nil
}

// printPerTool shows where the tool tokens go, so a description that grew
// is easy to spot.
func printPerTool(defs []scripted.Tool) {
	est := compact.Default()
	type row struct {
		name string
		n    int
	}
	var rows []row
	for _, d := range defs {
		b, _ := json.Marshal(d)
		rows = append(rows, row{d.Name, est.Text(string(b))})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].n > rows[j].n })
	for _, r := range rows {
		fmt.Printf("  %-26s %6d\n", r.name, r.n)
	}
	for _, d := range defs {
		if d.Name == tools.DeferredEntryName {
			fmt.Printf("\n%s lists:\n%s\n", d.Name, d.Description)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "promptbench:", err)
	os.Exit(1)
}
