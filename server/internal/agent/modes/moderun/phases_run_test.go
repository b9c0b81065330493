package moderun_test

import (
	"context"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// Failing checks in VERIFYING go back to PATCHING (the next write returns
// to VERIFYING), and the third report_blocked on that step is FAILED: the
// turn ends there, with the reason kept outside the conversation.
func TestPhasesBlockedVerifyingLoopsBackThenFails(t *testing.T) {
	s := &enginetest.Script{Main: []scripted.Reply{
		calls(call("f1", "report_findings", map[string]any{"text": "a.txt is wrong"})),
		calls(call("p1", "report_plan", map[string]any{"steps": []string{"fix a.txt"}})),
		calls(call("w1", "write_file", map[string]any{"filePath": "a.txt", "content": "v1\n"})),
		calls(call("b1", "report_blocked", map[string]any{"text": "check fails"})),
		calls(call("w2", "write_file", map[string]any{"filePath": "a.txt", "content": "v2\n"})),
		calls(call("b2", "report_blocked", map[string]any{"text": "check still fails"})),
		calls(call("w3", "write_file", map[string]any{"filePath": "a.txt", "content": "v3\n"})),
		calls(call("b3", "report_blocked", map[string]any{"text": "cannot make it pass"})),
		text("unreachable"),
	}}
	x := enginetest.NewScripted(t, s, config.Values{}, false)
	ctx := context.Background()
	sess, _ := x.E.Sessions.Create(ctx, "")
	if err := x.E.Modes.Set(ctx, sess.ID, "phases"); err != nil {
		t.Fatal(err)
	}
	x.Turn(sess.ID, "fix a.txt")
	p := x.E.Modes.Progress(ctx, sess.ID)
	if p.State != modes.Failed || p.Reason != "cannot make it pass" || p.Blocked["VERIFYING#0"] != 3 {
		t.Fatalf("progress %+v", p)
	}
	if n := len(s.Reqs["main"]); n != 8 {
		t.Fatalf("%d model calls, want 8 (none after FAILED)", n)
	}
	// Each blocked report in VERIFYING went back to PATCHING, whose tools
	// the next run offered.
	for _, i := range []int{4, 6} {
		var names []string
		for _, tl := range s.Reqs["main"][i].Tools {
			names = append(names, tl.Name)
		}
		if !has(names, "write_file") || has(names, "run_shell_command") {
			t.Errorf("request %d offered %v", i, names)
		}
	}
	if !strings.Contains(strings.Join(p.Log, "\n"), "VERIFYING → PATCHING") {
		t.Errorf("log %v", p.Log)
	}
}

// A call repeated after a nudge (another run of the same phase) is still
// a repeat; in the next phase, or the next turn, it runs again.
func TestPhasesRepeatIsPerPhaseNotPerRun(t *testing.T) {
	s := &enginetest.Script{Main: []scripted.Reply{
		calls(call("l1", "list_files", map[string]any{})),
		text("Looked."), // nudged: another run of EXPLORING
		calls(call("l2", "list_files", map[string]any{})),
		calls(call("f1", "report_findings", map[string]any{"text": "found"})),
		calls(call("r1", "read_file", map[string]any{"filePath": "a.txt"})),
		text("stop"), text("stop"), text("stop"), text("stop"),
		calls(call("r2", "read_file", map[string]any{"filePath": "a.txt"})), // next turn
		text("ok"),
	}}
	x := enginetest.NewScripted(t, s, config.Values{}, false)
	x.WriteFile("a.txt", "a\n")
	ctx := context.Background()
	sess, _ := x.E.Sessions.Create(ctx, "")
	_ = x.E.Modes.Set(ctx, sess.ID, "phases")
	x.Turn(sess.ID, "look")
	x.Turn(sess.ID, "go on")
	res := x.ToolResults(sess.ID)
	if !strings.Contains(res["l2"], "already made") {
		t.Errorf("the repeat after a nudge ran: %q", res["l2"])
	}
	if !strings.HasPrefix(res["r1"], "ok") || !strings.HasPrefix(res["r2"], "ok") {
		t.Errorf("a read in a new phase / turn was refused: %q / %q", res["r1"], res["r2"])
	}
}
