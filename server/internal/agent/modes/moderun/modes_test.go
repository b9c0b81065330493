package moderun_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/eventdata"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// Plan mode offers read-only tools only, refuses a write called anyway,
// and stops at the proposed plan instead of running it; the mode is the
// session's and survives a restart.
func TestPlanModeWhitelistAndProposal(t *testing.T) {
	s := &enginetest.Script{Main: []scripted.Reply{
		calls(call("w1", "write_file", map[string]any{"path": "x.txt", "content": "no"})),
		calls(call("p1", "create_todo_list", map[string]any{"goal": "fix it", "items": []string{"read main.go", "fix the bug"}})),
	}}
	x := enginetest.NewScripted(t, s, config.Values{}, false)
	ctx := context.Background()
	sess, err := x.E.Sessions.Create(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := x.E.Modes.Set(ctx, sess.ID, "nonsense"); err == nil || !strings.Contains(err.Error(), "unknown mode") {
		t.Fatalf("bad mode accepted: %v", err)
	}
	if err := x.E.Modes.Set(ctx, "no-such-session", "plan"); err == nil {
		t.Fatal("mode set on a missing session")
	}
	if err := x.E.Modes.Set(ctx, sess.ID, "plan"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := x.E.RunPlan(ctx, sess.ID, nil); !errors.Is(err, engine.ErrNoPlanToRun) {
		t.Fatalf("RunPlan without a plan: %v", err)
	}
	x.Turn(sess.ID, "plan the fix")

	offered := s.Offered["main"]
	for _, want := range []string{"read_file", "grep_search", "create_todo_list"} {
		if !has(offered, want) {
			t.Errorf("plan mode must offer %s: %v", want, offered)
		}
	}
	for _, no := range []string{"write_file", "edit", "run_shell_command", "delete_file"} {
		if has(offered, no) {
			t.Errorf("plan mode offered %s", no)
		}
	}
	res := x.ToolResults(sess.ID)
	if !strings.HasPrefix(res["w1"], "error") || !strings.Contains(res["w1"], "does not allow write_file") {
		t.Errorf("write called anyway: %q", res["w1"])
	}
	if _, err := os.Stat(filepath.Join(x.Dir, "x.txt")); !os.IsNotExist(err) {
		t.Error("the refused write made its file")
	}
	// The person reads why, on a neutral card: the result says it was
	// withheld (not broken) and words it for the mode.
	page, err := x.E.Store.LoadMessages(ctx, sess.ID, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	shown := false
	for _, m := range page.Messages {
		for _, part := range m.Parts {
			if r := part.ToolResult; r != nil && r.ToolCallID == "w1" {
				shown = true
				// The policy's one-sentence reason (toolpolicy), on a neutral card.
				if !strings.Contains(r.Display, "Plan mode does not allow write_file") || !strings.Contains(string(r.Meta), `"withheld":true`) {
					t.Errorf("the withheld write's card: display %q, meta %s", r.Display, r.Meta)
				}
			}
		}
	}
	if !shown {
		t.Error("no stored result for the withheld write")
	}
	p := x.E.Plans.Todo(ctx, sess.ID)
	if p == nil || !p.Unfinished() || len(p.Items) != 2 {
		t.Fatalf("proposed plan: %+v", p)
	}
	if len(s.Reqs["main"]) != 2 {
		t.Fatalf("the plan must wait for Run plan, not run: %d model calls", len(s.Reqs["main"]))
	}

	x.Close()
	x.OpenTrusted(config.Values{}, false)
	if m := x.E.Modes.Mode(ctx, sess.ID); m != modes.Plan {
		t.Fatalf("mode after restart: %s", m)
	}
}

// Phases mode walks EXPLORING → PLANNING → PATCHING → VERIFYING → DONE
// in one turn: each run offers its state's tools only, a plain reply is
// answered with a nudge instead of ending the phase, a write called
// outside PATCHING is refused, and the record lives in session state and
// reaches the bus as mode events.
func TestPhasesModeTransitions(t *testing.T) {
	s := &enginetest.Script{Main: []scripted.Reply{
		text("I looked around."), // nudged
		calls(call("r1", "list_files", map[string]any{})),
		calls(call("r2", "list_files", map[string]any{})),
		calls(call("w0", "write_file", map[string]any{"path": "early.txt", "content": "x"})),
		calls(call("f1", "report_findings", map[string]any{"text": "the bug is in a.txt"})),
		calls(call("p1", "report_plan", map[string]any{"steps": []string{"fix a.txt"}})),
		// PATCHING offers no report_done: refused, and the run goes on.
		calls(call("d1", "report_done", map[string]any{"text": "patched"})),
		// Writing the plan's one step moves to VERIFYING.
		calls(call("w1", "write_file", map[string]any{"filePath": "a.txt", "content": "fixed\n"})),
		calls(call("d2", "report_done", map[string]any{"text": "a.txt reads fixed"})),
		text("Done."),
	}}
	x := enginetest.NewScripted(t, s, config.Values{}, false)
	ctx := context.Background()
	sess, _ := x.E.Sessions.Create(ctx, "")
	if err := x.E.Modes.Set(ctx, sess.ID, "phases"); err != nil {
		t.Fatal(err)
	}
	x.Turn(sess.ID, "fix the bug")

	reqs := s.Reqs["main"]
	offered := func(i int) []string {
		var out []string
		for _, tl := range reqs[i].Tools {
			out = append(out, tl.Name)
		}
		return out
	}
	if len(reqs) != 9 {
		t.Fatalf("%d model calls, want 9", len(reqs))
	}
	if o := offered(0); !has(o, "report_findings") || has(o, "report_plan") || has(o, "write_file") {
		t.Errorf("EXPLORING offered %v", o)
	}
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; !strings.Contains(last.Content, "does not end it") {
		t.Errorf("no nudge after a plain reply: %q", last.Content)
	}
	if o := offered(5); !has(o, "report_plan") || has(o, "grep_search") || has(o, "write_file") {
		t.Errorf("PLANNING offered %v", o)
	}
	if o := offered(6); !has(o, "write_file") || !has(o, "report_blocked") || has(o, "run_shell_command") || has(o, "report_done") {
		t.Errorf("PATCHING offered %v", o)
	}
	if o := offered(7); !has(o, "write_file") || has(o, "report_done") {
		t.Errorf("PATCHING after a refused report offered %v", o)
	}
	if o := offered(8); !has(o, "run_shell_command") || has(o, "write_file") {
		t.Errorf("VERIFYING offered %v", o)
	}
	res := x.ToolResults(sess.ID)
	if !strings.HasPrefix(res["r1"], "ok") || !strings.Contains(res["r2"], "already made") {
		t.Errorf("repeat: %q / %q", res["r1"], res["r2"])
	}
	if !strings.Contains(res["w0"], "does not allow write_file") || !strings.HasPrefix(res["w1"], "ok") || !strings.Contains(res["d1"], "does not allow report_done") {
		t.Errorf("writes: early %q, patch %q; report_done in PATCHING %q", res["w0"], res["w1"], res["d1"])
	}
	p := x.E.Modes.Progress(ctx, sess.ID)
	if p.State != modes.Done || p.Findings != "the bug is in a.txt" || len(p.Plan) != 1 {
		t.Fatalf("progress %+v", p)
	}
	progress := 0
	for _, ev := range x.EventsOf(sess.ID, kinds.Mode) {
		if pl, ok := ev.Payload.(eventdata.ModeState); ok && pl.Mode == string(modes.Phases) && pl.State != "" {
			progress++
		}
	}
	if evs := x.EventsOf(sess.ID, kinds.Mode); progress != 4 || len(evs) != 5 {
		t.Errorf("%d mode events, want 4", len(evs))
	}
}

// A model that never reports gets a bounded number of nudges, then the
// turn ends with the phase unchanged.
func TestPhasesModeNudgesAreBounded(t *testing.T) {
	s := &enginetest.Script{Main: []scripted.Reply{text("a"), text("b"), text("c"), text("d"), text("e"), text("f")}}
	x := enginetest.NewScripted(t, s, config.Values{}, false)
	ctx := context.Background()
	sess, _ := x.E.Sessions.Create(ctx, "")
	_ = x.E.Modes.Set(ctx, sess.ID, "phases")
	x.Turn(sess.ID, "fix")
	if n := len(s.Reqs["main"]); n != 4 {
		t.Fatalf("%d model calls, want 1 + 3 nudges", n)
	}
	if st := x.E.Modes.Progress(ctx, sess.ID).State; st != modes.Exploring {
		t.Fatalf("state %s", st)
	}
}

// Phases mode offers only the current phase's tools.
func TestPhasesModeOffersPhaseTools(t *testing.T) {
	s := &enginetest.Script{Main: []scripted.Reply{text("I looked around.")}}
	x := enginetest.NewScripted(t, s, config.Values{}, false)
	ctx := context.Background()
	sess, _ := x.E.Sessions.Create(ctx, "")
	if err := x.E.Modes.Set(ctx, sess.ID, "phases"); err != nil {
		t.Fatal(err)
	}
	x.Turn(sess.ID, "fix the bug")
	offered := s.Offered["main"]
	if !has(offered, "read_file") || has(offered, "write_file") || has(offered, "run_shell_command") || has(offered, "create_todo_list") {
		t.Fatalf("EXPLORING offered %v", offered)
	}
}

// /reconcile switches to Reconcile mode and drafts a manifest: the only
// file a write may touch is .govibe/manifests/<name>.json.
func TestReconcileCommandDraftsManifestOnly(t *testing.T) {
	manifest := `{"apiVersion":"vibe/v1","kind":"VibeManifest","metadata":{"name":"snake","approved":false},"spec":{"intent":"snake","constraints":{},"functionalSpec":{},"testCommand":"npx vitest run --reporter=json"},"status":{"phase":"Pending","currentLoop":0,"diff":0}}`
	s := &enginetest.Script{Main: []scripted.Reply{
		calls(call("w0", "write_file", map[string]any{"filePath": "src/App.tsx", "content": "x"})),
		calls(call("w1", "write_file", map[string]any{"filePath": ".govibe/manifests/snake.json", "content": manifest})),
		text("Saved the manifest; review and approve it."),
	}}
	x := enginetest.NewScripted(t, s, config.Values{}, false)
	ctx := context.Background()
	sess, _ := x.E.Sessions.Create(ctx, "")
	if _, _, err := x.E.Send(ctx, engine.SendParams{SessionID: sess.ID, Text: "/reconcile"}); err == nil || !strings.Contains(err.Error(), "needs an intent") {
		t.Fatalf("empty intent: %v", err)
	}
	x.Turn(sess.ID, "/reconcile a snake game in React")
	if m := x.E.Modes.Mode(ctx, sess.ID); m != modes.Reconcile {
		t.Fatalf("mode %s", m)
	}
	if !strings.Contains(s.Reqs["main"][0].Messages[len(s.Reqs["main"][0].Messages)-1].Content, "Vibe Manifest") {
		t.Error("the model was not asked for a manifest")
	}
	res := x.ToolResults(sess.ID)
	if !strings.Contains(res["w0"], "only .govibe/manifests") || !strings.HasPrefix(res["w1"], "ok") {
		t.Fatalf("writes: %q / %q", res["w0"], res["w1"])
	}
	b, err := os.ReadFile(filepath.Join(x.Dir, ".govibe/manifests/snake.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := modes.ParseManifest(b); err != nil {
		t.Fatal(err)
	}
}

// VERIFYING's shell runs read-only commands and checks only: a command
// that writes or deletes is refused before it runs, whatever the approval
// mode says.
func TestPhasesVerifyingShellIsReadOnly(t *testing.T) {
	s := &enginetest.Script{Main: []scripted.Reply{
		calls(call("f1", "report_findings", map[string]any{"text": "a.txt"})),
		calls(call("p1", "report_plan", map[string]any{"steps": []string{"note the check in c.txt"}})),
		calls(call("w1", "write_file", map[string]any{"filePath": "c.txt", "content": "checked\n"})),
		calls(call("x1", "run_shell_command", map[string]any{"command": "rm a.txt"})),
		calls(call("x2", "run_shell_command", map[string]any{"command": "echo hi > b.txt"})),
		calls(call("x3", "run_shell_command", map[string]any{"command": "cat a.txt"})),
		calls(call("d2", "report_done", map[string]any{"text": "a.txt reads fine"})),
	}}
	x := enginetest.NewScripted(t, s, config.Values{}, false)
	x.WriteFile("a.txt", "fine\n")
	ctx := context.Background()
	sess, _ := x.E.Sessions.Create(ctx, "")
	if err := x.E.Modes.Set(ctx, sess.ID, "phases"); err != nil {
		t.Fatal(err)
	}
	x.Turn(sess.ID, "check a.txt")
	res := x.ToolResults(sess.ID)
	for _, id := range []string{"x1", "x2"} {
		if !strings.Contains(res[id], "may only run read-only commands") {
			t.Errorf("%s: %q", id, res[id])
		}
	}
	if !strings.HasPrefix(res["x3"], "ok") || !strings.Contains(res["x3"], "fine") {
		t.Errorf("a read-only command must run: %q", res["x3"])
	}
	if _, err := os.Stat(filepath.Join(x.Dir, "a.txt")); err != nil {
		t.Error("the refused rm ran")
	}
	if _, err := os.Stat(filepath.Join(x.Dir, "b.txt")); !os.IsNotExist(err) {
		t.Error("the refused redirect ran")
	}
	if st := x.E.Modes.Progress(ctx, sess.ID).State; st != modes.Done {
		t.Fatalf("state %s", st)
	}
}

// "Run plan" with the user's edits: a bad edit is refused with the plan
// unchanged; a good one replaces the proposed items, and the scheduler
// runs the edited list in Agent mode.
func TestRunPlanWithEdits(t *testing.T) {
	s := &enginetest.Script{Main: []scripted.Reply{
		calls(call("p1", "create_todo_list", map[string]any{"goal": "fix it", "items": []string{"read main.go", "fix the bug"}})),
	}}
	x := enginetest.NewScripted(t, s, config.Values{}, false)
	ctx := context.Background()
	sess, _ := x.E.Sessions.Create(ctx, "")
	_ = x.E.Modes.Set(ctx, sess.ID, "plan")
	x.Turn(sess.ID, "plan the fix")
	for _, bad := range [][]engine.PlanEdit{{}, {{Title: "ok"}, {Title: "  "}}} {
		if _, _, err := x.E.RunPlan(ctx, sess.ID, bad); err == nil {
			t.Fatalf("edit %v accepted", bad)
		}
	}
	if p := x.E.Plans.Todo(ctx, sess.ID); len(p.Items) != 2 || p.Items[0].Title != "read main.go" || x.E.Modes.Mode(ctx, sess.ID) != modes.Plan {
		t.Fatalf("a refused edit changed the plan or the mode: %+v", p)
	}
	edits := []engine.PlanEdit{{Title: "read util.go"}, {Title: "fix the bug", Acceptance: "tests pass"}, {Title: "add a test"}}
	if _, _, err := x.E.RunPlan(ctx, sess.ID, edits); err != nil {
		t.Fatal(err)
	}
	x.E.Wait(sess.ID)
	p := x.E.Plans.Todo(ctx, sess.ID)
	if p == nil || len(p.Items) != 3 || p.Items[0].Title != "read util.go" || p.Items[1].Acceptance != "tests pass" {
		t.Fatalf("edited plan %+v", p)
	}
	if p.Items[0].Agent == "" {
		t.Errorf("the scheduler did not run the edited plan: %+v", p.Items[0])
	}
	if x.E.Modes.Mode(ctx, sess.ID) != modes.Agent {
		t.Error("Run plan must switch to Agent mode")
	}
}
