package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// offeredTools is what a recorded request offered the model.
func offeredTools(r scripted.RecordedRequest) map[string]bool {
	out := map[string]bool{}
	for _, t := range r.Tools {
		out[t.Name] = true
	}
	return out
}

// govibe exec --mode plan: only read-only tools are offered, a write the
// model calls anyway is refused and nothing is written, the run ends at
// the proposed plan (not run); the mode is the session's, so the next
// process resuming it without --mode is still in Plan.
func TestExecModePlanIsReadOnlyAndPersists(t *testing.T) {
	ws := gitRepo(t, map[string]string{"a.txt": "hello\n"})
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("w1", "write_file", `{"filePath":"a.txt","content":"changed\n"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("p1", "create_todo_list", `{"goal":"greet","items":["change the greeting"]}`)}},
		scripted.Reply{Text: "Proposed."},
		scripted.Reply{Text: "Still planning."},
	)
	state := t.TempDir()
	common := []string{"--workspace", ws, "--state-dir", state, "--base-url", model.URL(), "--model", "m", "--approve", "all", "--output", "stream-json"}
	out, errOut, code := runExec(t, nil, append(common, "--mode", "plan", "plan the greeting")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "hello\n" {
		t.Fatalf("Plan mode wrote a.txt: %q", b)
	}
	reqs := model.Requests()
	if o := offeredTools(reqs[0]); o["write_file"] || o["run_shell_command"] || !o["read_file"] || !o["create_todo_list"] {
		t.Fatalf("Plan offered %v", o)
	}
	if got := reqs[1].Messages[len(reqs[1].Messages)-1].Content; !strings.Contains(got, "not available") {
		for i, r := range reqs {
			t.Logf("req %d: %d msgs, last %q", i, len(r.Messages), r.Messages[len(r.Messages)-1].Content)
		}
		t.Fatalf("the write called anyway got %q\n%s", got, out)
	}
	if strings.Contains(out, "executor:1") || !strings.Contains(out, "proposed, not run") {
		t.Fatalf("Plan mode ran its plan, or told the model it would:\n%s", out)
	}
	sid := sessionOf(t, out)
	out, errOut, code = runExec(t, nil, append(common, "--session", sid, "what next?")...)
	if code != 0 {
		t.Fatalf("resumed: exit %d\n%s\n%s", code, out, errOut)
	}
	if o := offeredTools(model.Requests()[len(model.Requests())-1]); o["write_file"] {
		t.Fatal("the session lost Plan mode across processes")
	}
	if _, errOut, code := runExec(t, nil, append(common, "--mode", "turbo", "x")...); code != 2 || !strings.Contains(errOut, "unknown mode") {
		t.Fatalf("--mode turbo: exit %d, %s", code, errOut)
	}
}

// govibe exec --mode phases: each state offers its own tools, a write
// patches the plan's step, and the run ends DONE with the file written.
func TestExecModePhasesRunsToDone(t *testing.T) {
	ws := gitRepo(t, map[string]string{"a.txt": "helo\n"})
	model := scripted.Start(t,
		scripted.Reply{Text: "It is a typo."}, // a plain reply: told to report
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("f1", "report_findings", `{"text":"a.txt misspells hello"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("p1", "report_plan", `{"steps":["fix a.txt"]}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("r1", "read_file", `{"filePath":"a.txt"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("w1", "write_file", `{"filePath":"a.txt","content":"hello\n"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("s1", "run_shell_command", `{"command":"cat a.txt"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("d1", "report_done", `{"text":"a.txt reads hello"}`)}},
	)
	out, errOut, code := runExec(t, nil, "--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m",
		"--approve", "all", "--output", "stream-json", "--mode", "phases", "fix a.txt")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "hello\n" {
		t.Fatalf("a.txt: %q\n%s\n%s", b, out, errOut)
	}
	reqs := model.Requests()
	if len(reqs) != 7 {
		t.Fatalf("%d requests, want 7", len(reqs))
	}
	if got := reqs[1].Messages[len(reqs[1].Messages)-1].Content; !strings.Contains(got, "does not end it") {
		t.Fatalf("the plain reply was not answered with a nudge: %q", got)
	}
	want := []struct {
		i      int
		has    []string
		hasNot []string
	}{
		{0, []string{"read_file", "list_files", "grep_search", "report_findings"}, []string{"write_file", "run_shell_command", "report_plan"}},
		{2, []string{"read_file", "report_plan"}, []string{"grep_search", "write_file", "report_findings"}},
		{3, []string{"write_file", "edit", "report_blocked"}, []string{"run_shell_command", "report_done"}},
		{5, []string{"run_shell_command", "report_done", "report_blocked"}, []string{"write_file", "edit"}},
	}
	for _, w := range want {
		o := offeredTools(reqs[w.i])
		for _, n := range w.has {
			if !o[n] {
				t.Errorf("request %d does not offer %s: %v", w.i, n, o)
			}
		}
		for _, n := range w.hasNot {
			if o[n] {
				t.Errorf("request %d offers %s", w.i, n)
			}
		}
	}
}
