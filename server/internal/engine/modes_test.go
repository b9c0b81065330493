package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm/scripted"
	"github.com/govibe/govibe/server/internal/modes"
)

// Plan mode offers read-only tools only, refuses a write called anyway,
// and stops at the proposed plan instead of running it; the mode is the
// session's and survives a restart.
func TestPlanModeWhitelistAndProposal(t *testing.T) {
	s := &subScript{main: []scripted.Reply{
		calls(call("w1", "write_file", map[string]any{"path": "x.txt", "content": "no"})),
		calls(call("p1", "create_todo_list", map[string]any{"goal": "fix it", "items": []string{"read main.go", "fix the bug"}})),
	}}
	x := newSubEnv(t, s, config.Values{}, false)
	ctx := context.Background()
	sess, err := x.e.CreateSession(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := x.e.SetMode(ctx, sess.ID, "nonsense"); err == nil || !strings.Contains(err.Error(), "unknown mode") {
		t.Fatalf("bad mode accepted: %v", err)
	}
	if err := x.e.SetMode(ctx, "no-such-session", "plan"); err == nil {
		t.Fatal("mode set on a missing session")
	}
	if err := x.e.SetMode(ctx, sess.ID, "plan"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := x.e.RunPlan(ctx, sess.ID); !errors.Is(err, ErrNoPlanToRun) {
		t.Fatalf("RunPlan without a plan: %v", err)
	}
	x.turn(sess.ID, "plan the fix")

	offered := s.offered["main"]
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
	res := x.toolResults(sess.ID)
	if !strings.HasPrefix(res["w1"], "error") || !strings.Contains(res["w1"], "does not allow write_file") {
		t.Errorf("write called anyway: %q", res["w1"])
	}
	if _, err := os.Stat(filepath.Join(x.dir, "x.txt")); !os.IsNotExist(err) {
		t.Error("the refused write made its file")
	}
	p := x.e.Todo(ctx, sess.ID)
	if p == nil || !p.Unfinished() || len(p.Items) != 2 {
		t.Fatalf("proposed plan: %+v", p)
	}
	if len(s.reqs["main"]) != 2 {
		t.Fatalf("the plan must wait for Run plan, not run: %d model calls", len(s.reqs["main"]))
	}

	x.close()
	x.openTrusted(config.Values{}, false)
	if m := x.e.Mode(ctx, sess.ID); m != modes.Plan {
		t.Fatalf("mode after restart: %s", m)
	}
}

// Phases mode offers only the current phase's tools.
func TestPhasesModeOffersPhaseTools(t *testing.T) {
	s := &subScript{main: []scripted.Reply{text("I looked around.")}}
	x := newSubEnv(t, s, config.Values{}, false)
	ctx := context.Background()
	sess, _ := x.e.CreateSession(ctx, "")
	if err := x.e.SetMode(ctx, sess.ID, "phases"); err != nil {
		t.Fatal(err)
	}
	x.turn(sess.ID, "fix the bug")
	offered := s.offered["main"]
	if !has(offered, "read_file") || has(offered, "write_file") || has(offered, "run_shell_command") || has(offered, "create_todo_list") {
		t.Fatalf("EXPLORING offered %v", offered)
	}
}
