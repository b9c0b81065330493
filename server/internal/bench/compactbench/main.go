// Command compactbench measures how cache-friendly GoVibe's compaction is.
// It runs the same scripted session (tool use, one side question, enough
// turns to need compaction) twice against the scripted model on loopback:
// once with GoVibe's summary compaction, once with a naive policy that
// drops the oldest half of the model track at the same threshold. It prints
// the average prefix-stable fraction of prompt tokens and the total prompt
// tokens of each, and their ratio.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func main() {
	turns := flag.Int("turns", 40, "turns in the session")
	extra := flag.Int("extra", 7000, "tokens of conversation above the fixed prompt before the threshold is reached")
	keep := flag.Int("keep", 800, "govibe.compact.keepTokens")
	flag.Parse()
	ours, err := run(policySummary, *turns, *extra, *keep)
	if err == nil {
		var naive result
		naive, err = run(policyDropHalf, *turns, *extra, *keep)
		if err == nil {
			report(ours, naive)
			return
		}
	}
	fmt.Fprintln(os.Stderr, "compactbench:", err)
	os.Exit(1)
}

const (
	policySummary  = "summary compaction"
	policyDropHalf = "naive: drop oldest half"
)

type result struct {
	policy      string
	requests    int
	compactions int
	stable      float64 // mean over requests of common prefix / prompt
	prompt      int64   // total prompt tokens (scripted usage: chars/4)
	cached      int64   // of which served from the prefix cache
}

func report(ours, naive result) {
	fmt.Printf("%-26s %8s %11s %14s %14s %14s\n", "policy", "requests", "compactions", "prefix-stable", "prompt tokens", "uncached")
	for _, r := range []result{ours, naive} {
		fmt.Printf("%-26s %8d %11d %13.1f%% %14d %14d\n", r.policy, r.requests, r.compactions, 100*r.stable, r.prompt, r.prompt-r.cached)
	}
	fmt.Printf("\nprefix-stable fraction: %.3f vs %.3f (%.2fx)\n", ours.stable, naive.stable, ours.stable/naive.stable)
	fmt.Printf("total prompt tokens:    %d vs %d (%.2fx)\n", ours.prompt, naive.prompt, float64(ours.prompt)/float64(naive.prompt))
	fmt.Printf("uncached prompt tokens: %d vs %d (%.2fx)\n", ours.prompt-ours.cached, naive.prompt-naive.cached,
		float64(ours.prompt-ours.cached)/float64(naive.prompt-naive.cached))
}

func turnText(i int) string {
	switch {
	case i == 10:
		return "/btw what does the acronym CI stand for"
	case i%3 == 0:
		return fmt.Sprintf("read file%d.txt and then %s", i%5, enginetest.Prose(25, uint64(i)))
	}
	return enginetest.Prose(40, uint64(i))
}

func reply(r *scripted.RecordedRequest) scripted.Reply {
	if compact.IsInstruction(r.LastUserMessage()) {
		return scripted.Reply{ChunkSize: 256, Text: "<state_snapshot>\n<overall_goal>Keep the parser robust.</overall_goal>\n<key_knowledge>\n- " + enginetest.Prose(60, 7) +
			"\n</key_knowledge>\n<file_system_state>\n- READ: file0.txt … file4.txt\n</file_system_state>\n<recent_actions>\n- read files, answered questions\n</recent_actions>\n" +
			"<current_plan>\n1. [DONE] read\n2. [IN PROGRESS] continue\n</current_plan>\n</state_snapshot>"}
	}
	kind, text := r.LatestInput()
	if kind == "user" {
		if i := strings.Index(text, "read "); i >= 0 {
			name := strings.Fields(text[i+5:])[0]
			return scripted.Reply{ChunkSize: 256, Text: "Reading it.", ToolCalls: []scripted.ToolCall{{Name: "read_file", Arguments: fmt.Sprintf(`{"filePath":%q}`, name)}}}
		}
	}
	return scripted.Reply{ChunkSize: 256, Text: enginetest.Prose(40, uint64(len(r.Messages)))}
}

func run(policy string, turns, extra, keep int) (result, error) {
	res := result{policy: policy}
	model, err := scripted.New()
	if err != nil {
		return res, err
	}
	defer model.Close()
	model.SetHandler(reply)
	tmp, err := os.MkdirTemp("", "compactbench")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(tmp)
	ws, state := filepath.Join(tmp, "ws"), filepath.Join(tmp, "state")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return res, err
	}
	for i := 0; i < 5; i++ {
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("file%d.txt", i)), []byte(enginetest.Prose(300, uint64(50+i))), 0o644); err != nil {
			return res, err
		}
	}
	settings := config.Values{"apiBaseUrl": model.URL(), "model": "scripted-model", "maxOutputTokens": float64(2000),
		"compact.keepTokens": float64(keep)}
	open := func(window int, threshold float64) (*engine.Engine, error) {
		v := settings.Merge(config.Values{"contextWindow": float64(window), "compact.threshold": threshold})
		return engine.New(engine.Options{Roots: []string{ws}, StateDir: state, Settings: v, APIKeys: map[string]string{"": "sk-bench"},
			Headless: true, Approve: "all", HostInfo: engine.HostInfo{OS: "linux", Shell: "bash"}})
	}
	ctx := context.Background()
	// Size the window from the fixed prompt (system + tools), measured on
	// an empty session.
	probe, err := open(128000, 0.7)
	if err != nil {
		return res, err
	}
	s, err := probe.Sessions.Create(ctx, "bench")
	if err != nil {
		probe.Close()
		return res, err
	}
	sid := s.ID
	window := int(float64(probe.EstimateContext(ctx, sid)+extra) / 0.7)
	probe.Close()

	threshold := 0.7
	if policy == policyDropHalf {
		// The engine must not compact; the harness drops instead.
		threshold = 1.0
	}
	e, err := open(window, threshold)
	if err != nil {
		return res, err
	}
	defer e.Close()
	est := compact.Default()
	for i := 0; i < turns; i++ {
		text := turnText(i)
		if policy == policyDropHalf {
			next := e.EstimateContext(ctx, sid) + est.Text(text) + 40
			if next > int(float64(window)*0.7) {
				if err := dropOldestHalf(ctx, e, sid); err != nil {
					return res, err
				}
				res.compactions++
			}
		}
		if _, _, err := e.Send(ctx, engine.SendParams{SessionID: sid, Text: text}); err != nil {
			return res, err
		}
		if st := e.Wait(sid); st != "done" {
			return res, fmt.Errorf("%s: turn %d ended %s", policy, i, st)
		}
	}
	if policy == policySummary {
		res.compactions = len(e.Compaction.Records(ctx, sid))
	}
	reqs := model.Requests()
	n := 0
	for _, r := range reqs {
		if r.Status != 200 {
			return res, fmt.Errorf("%s: request %d answered %d", policy, r.Seq, r.Status)
		}
		res.requests++
		res.prompt += int64(r.Prefix.Chars / 4)
		res.cached += int64(r.Prefix.CommonTokens / 64 * 64)
		if r.Prefix.PrevChars > 0 {
			res.stable += float64(r.Prefix.CommonChars) / float64(r.Prefix.Chars)
			n++
		}
	}
	if n > 0 {
		res.stable /= float64(n)
	}
	return res, nil
}

// dropOldestHalf is the naive reference: cut the model track in half at
// the nearest point that keeps tool calls with their results.
func dropOldestHalf(ctx context.Context, e *engine.Engine, sid string) error {
	track, err := e.Store.LLMMessages(ctx, sid)
	if err != nil {
		return err
	}
	cut := len(track) / 2
	for cut < len(track) && !startsExchange(track, cut) {
		cut++
	}
	if cut == 0 || cut >= len(track) {
		return nil
	}
	return e.Store.ReplaceLLMMessages(ctx, sid, 0, cut, nil)
}

func startsExchange(track []llm.Message, i int) bool {
	return track[i].Role == llm.RoleUser && !compact.IsToolResult(track[i])
}
