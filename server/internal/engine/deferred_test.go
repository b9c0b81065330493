package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// deferredRun is a finished turn's requests and what they say about the
// tools: each request's tool list (the same bytes in every request, or
// the test fails) and the calls the model made.
type deferredRun struct {
	x     *enginetest.Env
	sid   string
	reqs  []scripted.RecordedRequest
	tools string
}

func runDeferred(t *testing.T, x *enginetest.Env, sid, prompt string, replies ...scripted.Reply) deferredRun {
	t.Helper()
	before := len(x.Model.Requests())
	x.Model.Enqueue(replies...)
	sid, _ = x.Turn(sid, prompt)
	reqs := x.Model.Requests()[before:]
	if len(reqs) != len(replies) {
		t.Fatalf("%q: %d requests for %d scripted replies", prompt, len(reqs), len(replies))
	}
	first := enginetest.RawTools(t, reqs[0])
	for i, r := range reqs[1:] {
		if enginetest.RawTools(t, r) != first {
			t.Fatalf("%q: request %d's tools differ from the first's", prompt, i+2)
		}
	}
	return deferredRun{x: x, sid: sid, reqs: reqs, tools: first}
}

// shownCalls are the tool calls the chat stores for the session, by id.
func shownCalls(t *testing.T, x *enginetest.Env, sid string) map[string]store.ToolCall {
	t.Helper()
	page, err := x.E.Store.LoadMessages(context.Background(), sid, 0, 10000)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]store.ToolCall{}
	for _, m := range page.Messages {
		for _, p := range m.Parts {
			if p.ToolCall != nil {
				out[p.ToolCall.ID] = *p.ToolCall
			}
		}
	}
	return out
}

// TestOrdinaryTasksNeedNoDeferredTool is the hold-out: ordinary tasks
// (read, search, edit, run a command) are done with the tools offered
// directly, in as many rounds as before the deferral; none of them calls
// a deferred tool or the entry, and the request's tools stay the same
// bytes throughout.
func TestOrdinaryTasksNeedNoDeferredTool(t *testing.T) {
	x := enginetest.New(t, nil)
	x.WriteFile("calc.go", "package calc\n\nfunc Add(a, b int) int { return a - b }\n")
	x.WriteFile("notes/todo.md", "- fix Add\n")
	tasks := []struct {
		prompt  string
		replies []scripted.Reply
	}{
		{"What does Add do?", []scripted.Reply{calls(call("r1", "read_file", map[string]any{"filePath": "calc.go"})), text("It subtracts.")}},
		{"Where is Add defined, and which notes mention it?", []scripted.Reply{
			calls(call("s1", "grep_search", map[string]any{"pattern": "func Add"}), call("s2", "glob", map[string]any{"pattern": "**/*.md"}),
				call("s3", "list_files", map[string]any{"dirPath": "."})),
			calls(call("s4", "find_in_file", map[string]any{"filePath": "notes/todo.md", "searchString": "Add"})),
			text("calc.go:3; notes/todo.md:1."),
		}},
		{"Fix Add.", []scripted.Reply{
			calls(call("e1", "read_file", map[string]any{"filePath": "calc.go"}), call("e0", "read_file", map[string]any{"filePath": "notes/todo.md"})),
			calls(call("e2", "edit", map[string]any{"filePath": "calc.go", "startLine": 3, "endLine": 3, "newContent": "func Add(a, b int) int { return a + b }"})),
			calls(call("e3", "write_file", map[string]any{"filePath": "notes/todo.md", "content": "- done\n"})),
			text("Fixed calc.go:3."),
		}},
		{"Run a command that prints ordinary.", []scripted.Reply{calls(call("c1", "run_shell_command", map[string]any{"command": "echo ordinary"})), text("Printed.")}},
	}
	sid := ""
	var offered string
	for _, task := range tasks {
		run := runDeferred(t, x, sid, task.prompt, task.replies...)
		sid = run.sid
		if offered == "" {
			offered = run.tools
		} else if run.tools != offered {
			t.Fatalf("%q: the tools changed between turns", task.prompt)
		}
		for _, r := range task.replies {
			for _, c := range r.ToolCalls {
				if tools.BuiltinTraits(c.Name).Has(tools.Deferred) || c.Name == tools.DeferredEntryName {
					t.Errorf("%q calls %s", task.prompt, c.Name)
				}
				if !strings.Contains(offered, `"name":"`+c.Name+`"`) {
					t.Errorf("%q: %s is not offered directly", task.prompt, c.Name)
				}
			}
		}
	}
	results := x.ToolResults(sid)
	for id, res := range results {
		if !strings.HasPrefix(res, "ok: ") {
			t.Errorf("%s: %s", id, res)
		}
	}
	if len(results) != 10 || !strings.Contains(results["c1"], "ordinary") {
		t.Fatalf("results %v", results)
	}
	if b, _ := os.ReadFile(filepath.Join(x.Dir, "calc.go")); !strings.Contains(string(b), "a + b") {
		t.Fatalf("calc.go: %s", b)
	}
}

// TestDeferredToolInOneExtraStep: a task that needs a deferred tool
// reaches it through the entry in one extra step (the look-up), and with
// none when the model runs it from the entry's list. Either way the
// request's tools are the same bytes as an ordinary turn's, the chat's
// card and the hooks see the tool by its own name and arguments, and the
// model's track keeps the call it wrote.
func TestDeferredToolInOneExtraStep(t *testing.T) {
	hookInput := filepath.Join(t.TempDir(), "pre.json")
	x := enginetest.New(t, hookSetting(t, map[string]map[string]string{
		"PreToolUse": {"create_directory": "cat >> " + hookInput + "\n", tools.DeferredEntryName: "echo entry >> " + hookInput + ".entry\n"},
	}, 0))
	ordinary := runDeferred(t, x, "", "hello", text("Hi."))
	if strings.Contains(ordinary.tools, `"name":"create_directory"`) || !strings.Contains(ordinary.tools, `\n- create_directory(dirPath): `) {
		t.Fatalf("create_directory is not behind the entry: %s", ordinary.tools)
	}
	run := runDeferred(t, x, ordinary.sid, "Create the folder docs/img.",
		calls(call("l1", tools.DeferredEntryName, map[string]any{"tool": "create_directory"})),
		calls(call("d1", tools.DeferredEntryName, map[string]any{"tool": "create_directory", "arguments": map[string]any{"dirPath": "docs/img"}})),
		text("Created docs/img."))
	if run.tools != ordinary.tools {
		t.Fatal("looking up and running a deferred tool changed the request's tools")
	}
	if fi, err := os.Stat(filepath.Join(x.Dir, "docs", "img")); err != nil || !fi.IsDir() {
		t.Fatalf("docs/img: %v", err)
	}
	res := x.ToolResults(run.sid)
	if !strings.Contains(res["l1"], "## create_directory") || !strings.Contains(res["l1"], `"dirPath"`) || !strings.HasPrefix(res["d1"], "ok: Created folder") {
		t.Fatalf("results: %v", res)
	}
	shown := shownCalls(t, x, run.sid)
	if c := shown["d1"]; c.Name != "create_directory" || c.Arguments != `{"dirPath":"docs/img"}` {
		t.Errorf("the chat stores the call as %+v", c)
	}
	if c := shown["l1"]; c.Name != tools.DeferredEntryName {
		t.Errorf("the look-up is stored as %+v", c)
	}
	for _, ev := range x.EventsOf(run.sid, kinds.ToolCall) {
		if ev.Tool.CallID == "d1" && ev.Tool.Name != "create_directory" {
			t.Errorf("the card shows %s", ev.Tool.Name)
		}
	}
	for _, m := range x.Track(run.sid) {
		for _, c := range m.ToolCalls {
			if c.ID == "d1" && c.Name != tools.DeferredEntryName {
				t.Errorf("the model's track rewrote its call to %s", c.Name)
			}
		}
	}
	x.Await("the PreToolUse hook", func() bool {
		b, _ := os.ReadFile(hookInput)
		return strings.Contains(string(b), `"tool_name":"create_directory"`) && strings.Contains(string(b), `"dirPath":"docs/img"`)
	})
	if _, err := os.Stat(hookInput + ".entry"); err == nil {
		t.Error("a hook saw the run as a call of the entry")
	}

	// Run from the list at once: no extra step at all.
	direct := runDeferred(t, x, run.sid, "Create docs/css.",
		calls(call("d2", tools.DeferredEntryName, map[string]any{"tool": "create_directory", "arguments": map[string]any{"dirPath": "docs/css"}})),
		text("Done."))
	if direct.tools != ordinary.tools || !strings.HasPrefix(x.ToolResults(run.sid)["d2"], "ok: Created folder") {
		t.Fatalf("direct run: %v", x.ToolResults(run.sid)["d2"])
	}
}

// TestDeferredCallKeepsThePolicy: through the entry, a deferred tool is
// still refused where the mode withholds it, with the policy's reason,
// and the user's permission rules judge it by its own name.
func TestDeferredCallKeepsThePolicy(t *testing.T) {
	x := enginetest.New(t, config.Values{"permissions.deny": []any{"browser_sub_agent"}})
	s, err := x.E.Sessions.Create(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := x.E.Modes.Set(context.Background(), s.ID, "plan"); err != nil {
		t.Fatal(err)
	}
	plan := runDeferred(t, x, s.ID, "Make a folder.",
		calls(call("p1", tools.DeferredEntryName, map[string]any{"tool": "create_directory", "arguments": map[string]any{"dirPath": "made"}})),
		text("Refused."))
	if strings.Contains(plan.tools, "- create_directory(") {
		t.Error("Plan mode's entry lists create_directory")
	}
	res := x.ToolResults(s.ID)["p1"]
	if !strings.Contains(res, "Plan mode does not allow create_directory") {
		t.Errorf("Plan mode ran create_directory through the entry: %q", res)
	}
	if _, err := os.Stat(filepath.Join(x.Dir, "made")); err == nil {
		t.Error("the folder was made in Plan mode")
	}
	if err := x.E.Modes.Set(context.Background(), s.ID, "agent"); err != nil {
		t.Fatal(err)
	}
	runDeferred(t, x, s.ID, "Check example.com in a browser.",
		calls(call("b1", tools.DeferredEntryName, map[string]any{"tool": "browser_sub_agent", "arguments": map[string]any{"task": "Read the heading", "url": "https://example.com/"}})),
		text("Denied."))
	if res := x.ToolResults(s.ID)["b1"]; !strings.Contains(res, "denied by your permission rule browser_sub_agent") {
		t.Errorf("the deny rule did not judge the call by its name: %q", res)
	}
}
