package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/eventdata"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func hookRuns(x *enginetest.Env, sid string, ev hooks.Event) []eventdata.HookRun {
	var out []eventdata.HookRun
	for _, e := range x.EventsOf(sid, kinds.Hook) {
		if r := e.Payload.(eventdata.HookRun); r.Event == string(ev) {
			out = append(out, r)
		}
	}
	return out
}

// TestSessionStartHookAddsContext: what a SessionStart hook prints goes
// into the first message the model reads, once.
func TestSessionStartHookAddsContext(t *testing.T) {
	x := enginetest.New(t, hookSetting(t, map[string]map[string]string{
		"SessionStart": {"": "echo 'SESSION-CONTEXT-7'\n"},
	}, 0))
	x.Model.Enqueue(scripted.Reply{Text: "one"}, scripted.Reply{Text: "two"})
	s, err := x.E.Sessions.Create(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	x.Turn(s.ID, "first")
	x.Turn(s.ID, "second")
	reqs := x.Model.Requests()
	if u := reqs[0].LastUserMessage(); !strings.Contains(u, "SESSION-CONTEXT-7") {
		t.Fatalf("first message lacks the SessionStart context:\n%s", u)
	}
	if u := reqs[1].LastUserMessage(); strings.Contains(u, "SESSION-CONTEXT-7") {
		t.Fatalf("the context was added twice:\n%s", u)
	}
	if len(hookRuns(x, s.ID, hooks.SessionStart)) != 1 {
		t.Fatal("no SessionStart hook event")
	}
}

// TestStopHookBlockContinuesBounded: a Stop hook that blocks sends the
// agent back to work with its reason; one that blocks forever is cut off
// after a bounded number of continuations and the turn still ends.
func TestStopHookBlockContinuesBounded(t *testing.T) {
	// Blocks the first time only: it lets go when stop_hook_active is true
	// (Claude Code sends the field every time, false at first).
	x := enginetest.New(t, hookSetting(t, map[string]map[string]string{
		"Stop": {"": "case \"$(cat)\" in *'\"stop_hook_active\":true'*) exit 0;; esac\necho 'run the tests first' >&2; exit 2\n"},
	}, 0))
	x.Model.Enqueue(scripted.Reply{Text: "finished"}, scripted.Reply{Text: "tests ran, finished"})
	sid, _ := x.Turn("", "do it")
	reqs := x.Model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2 (the Stop hook sends the agent back once)", len(reqs))
	}
	if u := reqs[1].LastUserMessage(); !strings.Contains(u, "run the tests first") {
		t.Fatalf("the hook's reason is not what the model reads next:\n%s", u)
	}
	if st := x.E.Wait(sid); st != "done" {
		t.Fatalf("turn %s", st)
	}

	// A hook that always blocks: at most 3 continuations.
	y := enginetest.New(t, hookSetting(t, map[string]map[string]string{
		"Stop": {"": "cat >/dev/null; echo 'never done' >&2; exit 2\n"},
	}, 0))
	y.Model.SetHandler(func(*scripted.RecordedRequest) scripted.Reply { return scripted.Reply{Text: "done again"} })
	sid2, _ := y.Turn("", "loop")
	if n := len(y.Model.Requests()); n != 4 {
		t.Fatalf("%d model requests, want 4 (the first and 3 continuations)", n)
	}
	if runs := hookRuns(y, sid2, hooks.Stop); len(runs) != 4 {
		t.Fatalf("%d Stop runs, want 4", len(runs))
	}
	found := false
	for _, ev := range y.EventsOf(sid2, kinds.Notice) {
		found = found || strings.Contains(ev.Text, "cannot loop")
	}
	if !found {
		t.Fatal("no notice that the Stop hook was cut off")
	}
}

// TestPreCompactFiresForAutomaticCompaction: a compaction the threshold
// starts tells PreCompact hooks trigger "auto".
func TestPreCompactFiresForAutomaticCompaction(t *testing.T) {
	settings := hookSetting(t, map[string]map[string]string{
		"PreCompact": {"": "cat > \"$GOVIBE_PROJECT_DIR/precompact.json\"\n"},
	}, 0)
	x := enginetest.New(t, settings)
	x.Model.SetHandler(enginetest.ReplyTo)
	system, defs := x.E.Compaction.Prefix(context.Background(), "")
	window := int(float64(compact.Default().Request(system, defs, nil)+2500) / 0.7)
	v := config.Values{"contextWindow": float64(window), "compact.keepTokens": float64(800)}
	for k, val := range settings {
		v[k] = val
	}
	x.Reopen(v)
	sid := ""
	for i := 0; i < 14 && len(hookRuns(x, sid, hooks.PreCompact)) == 0; i++ {
		sid, _ = x.Turn(sid, enginetest.Prose(150, uint64(i)))
	}
	runs := hookRuns(x, sid, hooks.PreCompact)
	if len(runs) != 1 {
		t.Fatalf("%d PreCompact runs", len(runs))
	}
	if len(x.EventsOf(sid, kinds.Compaction)) != 1 {
		t.Fatal("no compaction")
	}
	raw, err := os.ReadFile(filepath.Join(x.Dir, "precompact.json"))
	if err != nil {
		t.Fatal(err)
	}
	b := string(raw)
	if !strings.Contains(b, `"trigger":"auto"`) || !strings.Contains(b, `"hook_event_name":"PreCompact"`) {
		t.Fatalf("PreCompact input: %s", b)
	}
}

// TestClearEndsAndStartsTheModelSession: /clear runs SessionEnd hooks
// (reason clear) and SessionStart hooks (source clear), whose context
// joins the next message the model reads, as a new session's would.
func TestClearEndsAndStartsTheModelSession(t *testing.T) {
	dir := t.TempDir()
	ended := filepath.Join(dir, "ended.json")
	x := enginetest.New(t, hookSetting(t, map[string]map[string]string{
		"SessionStart": {"": "grep -o '\"source\":\"[a-z]*\"'\n"},
		"SessionEnd":   {"": "cat >> " + ended + "\n"},
	}, 0))
	x.Model.Enqueue(scripted.Reply{Text: "one"}, scripted.Reply{Text: "two"})
	s, err := x.E.Sessions.Create(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	x.Turn(s.ID, "first")
	if _, err := os.Stat(ended); err == nil {
		t.Fatal("SessionEnd ran before /clear")
	}
	x.Turn(s.ID, "/clear")
	x.Turn(s.ID, "after the clear")
	b, err := os.ReadFile(ended)
	if err != nil || !strings.Contains(string(b), `"hook_event_name":"SessionEnd"`) || !strings.Contains(string(b), `"reason":"clear"`) {
		t.Fatalf("SessionEnd on /clear: %s %v", b, err)
	}
	reqs := x.Model.Requests()
	if u := reqs[0].LastUserMessage(); !strings.Contains(u, `"source":"startup"`) {
		t.Fatalf("first message lacks the startup context:\n%s", u)
	}
	last := reqs[len(reqs)-1]
	if u := last.LastUserMessage(); !strings.Contains(u, `"source":"clear"`) || !strings.Contains(u, "after the clear") {
		t.Fatalf("the message after /clear lacks the SessionStart context:\n%s", u)
	}
	if n := len(hookRuns(x, s.ID, hooks.SessionStart)); n != 2 {
		t.Fatalf("%d SessionStart runs, want 2", n)
	}
}
