package moderun_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// The reconcile workspace's test runner: each tests/*.want file holds a
// line app.txt must contain; it prints the plain "N passed, N failed"
// report the auditor parses. It is not a test path, so neither agent
// may change it.
const runTests = `p=0; f=0
for t in tests/*.want; do
  [ -e "$t" ] || continue
  if grep -qxF "$(cat "$t")" app.txt 2>/dev/null; then p=$((p+1)); else f=$((f+1)); fi
done
echo "$p passed, $f failed"
`

const reconcileManifest = `{"apiVersion":"vibe/v1","kind":"VibeManifest","metadata":{"name":"greeter","approved":false},
"spec":{"intent":"app.txt greets the world","constraints":{"language":"text","testing":"sh"},"functionalSpec":{"behaviors":["says hello","says world"]},
"testCommand":"sh run_tests.sh"},"status":{"phase":"Pending","currentLoop":0,"diff":0}}`

// reconcileEnv is a workspace with the runner and app.txt, a session in
// Reconcile mode whose drafted manifest is waiting for approval.
func reconcileEnv(t *testing.T, s *enginetest.Script, settings config.Values) (*enginetest.Env, string) {
	t.Helper()
	draft := []scripted.Reply{
		calls(call("m1", "write_file", map[string]any{"filePath": ".govibe/manifests/greeter.json", "content": reconcileManifest})),
		text("Drafted; approve it to start."),
	}
	s.Main = append(draft, s.Main...)
	x := enginetest.NewScripted(t, s, settings, false)
	x.WriteFile("run_tests.sh", runTests)
	x.WriteFile("app.txt", "hello\n")
	ctx := context.Background()
	sess, _ := x.E.Sessions.Create(ctx, "")
	x.Turn(sess.ID, "/reconcile a greeter")
	v, ok := x.E.Modes.ReconcileState(ctx, sess.ID)
	if !ok || v.Run.Manifest.Metadata.Name != "greeter" || v.Run.Manifest.Metadata.Approved {
		t.Fatalf("drafted run: %+v %v", v, ok)
	}
	return x, sess.ID
}

// approve starts the loop and waits for its turn to end.
func approve(x *enginetest.Env, sid string) moderun.ReconcileView {
	x.T.Helper()
	if _, _, err := x.E.Modes.ApproveManifest(context.Background(), sid, ""); err != nil {
		x.T.Fatal(err)
	}
	x.E.Wait(sid)
	v, _ := x.E.Modes.ReconcileState(context.Background(), sid)
	return v
}

// A specifier whose tests pass at once is sent back; the coder touching
// a test (by a write tool or the shell) is refused; the loop ends Ready
// with a snapshot per loop and the status written into the manifest file.
func TestReconcileRunReady(t *testing.T) {
	s := &enginetest.Script{Main: []scripted.Reply{
		// specifier 1: a test the current app already passes
		calls(call("s1", "write_file", map[string]any{"filePath": "tests/hello.want", "content": "hello"})),
		calls(call("s2", "write_file", map[string]any{"filePath": "app.txt", "content": "cheat"})),
		text("tests written"),
		// specifier 2 (sent back): a failing test
		calls(call("s3", "write_file", map[string]any{"filePath": "tests/world.want", "content": "world"})),
		text("tests written"),
		// coder, loop 1
		calls(call("c1", "write_file", map[string]any{"filePath": "tests/world.want", "content": "hello"})),
		calls(call("c2", "run_shell_command", map[string]any{"command": "rm tests/world.want"})),
		calls(call("c0", "read_file", map[string]any{"filePath": "app.txt"})),
		calls(call("c3", "write_file", map[string]any{"filePath": "app.txt", "content": "hello\nworld\n"})),
		text("implemented"),
	}}
	x, sid := reconcileEnv(t, s, config.Values{})
	v := approve(x, sid)
	m := v.Run.Manifest
	if m.Status.Phase != modes.PhaseReady || fmt.Sprint(v.Run.Diffs) != "[0]" || v.Run.Baseline != 1 || v.Run.SpecRetries != 1 {
		t.Fatalf("run %+v\nresults %v", v.Run, x.Published(sid))
	}
	res := x.Published(sid)
	if !strings.Contains(res["s2"], "may only write test files") {
		t.Errorf("specifier writing code: %q", res["s2"])
	}
	if !strings.Contains(res["c1"], "may not change tests") || !strings.Contains(res["c2"], "refused") {
		t.Errorf("coder touching tests: %q / %q", res["c1"], res["c2"])
	}
	if b, _ := os.ReadFile(filepath.Join(x.Dir, "tests/world.want")); string(b) != "world" {
		t.Errorf("the coder changed the test: %q", b)
	}
	reqs := s.Reqs["main"]
	var specPrompts []string
	for _, r := range reqs[2:] {
		if c := r.Messages[1].Content; strings.Contains(c, "You are the Specifier") && !contains(specPrompts, c) {
			specPrompts = append(specPrompts, c)
		}
	}
	if len(specPrompts) != 2 || !strings.Contains(specPrompts[1], "did not fail") {
		t.Fatalf("the specifier must be sent back: %q", specPrompts)
	}
	for _, r := range reqs[2:] {
		var offered []string
		for _, tl := range r.Tools {
			offered = append(offered, tl.Name)
		}
		if has(offered, "create_todo_list") || has(offered, "investigate") || !has(offered, "write_file") {
			t.Fatalf("a scoped agent offered %v", offered)
		}
	}
	b, err := os.ReadFile(filepath.Join(x.Dir, ".govibe/manifests/greeter.json"))
	if err != nil {
		t.Fatal(err)
	}
	fm, err := modes.ParseManifest(b)
	if err != nil || fm.Status.Phase != modes.PhaseReady || fm.Status.CurrentLoop != 1 || !fm.Metadata.Approved {
		t.Fatalf("manifest file: %+v %v", fm.Status, err)
	}
	snaps, _, err := x.E.Rollback.Snapshots(sid)
	if err != nil {
		t.Fatal(err)
	}
	loops := 0
	for _, sn := range snaps {
		if sn.Reason == moderun.ReasonReconcileLoop {
			loops++
		}
	}
	if loops != 1 {
		t.Errorf("%d loop snapshots, want 1", loops)
	}
	// The draft turn (4), then the loop turn's message answered by the
	// loop's outcome: the agents' own messages stay in their child
	// sessions, and the next turn's model sees no unanswered prompt.
	if tr := x.Track(sid); len(tr) != 6 || tr[4].Role != llm.RoleUser || tr[5].Role != llm.RoleAssistant ||
		!strings.Contains(tr[5].Content, `"greeter" ended Ready after 1 loop(s)`) {
		t.Errorf("the session's model track after the loop: %+v", tr)
	}
	if _, _, err := x.E.Modes.ResumeReconcile(context.Background(), sid); !errors.Is(err, moderun.ErrReconcileEnded) {
		t.Errorf("resume after Ready: %v", err)
	}
}

// A coder that makes no progress ends the run in CrashLoopBackOff after
// maxStagnation loops; with a lower loop cap, the cap ends it first.
func TestReconcileRunStagnationAndCap(t *testing.T) {
	for _, c := range []struct {
		settings config.Values
		loops    int
		reason   string
	}{
		{config.Values{}, 5, "stagnation"},
		{config.Values{"reconcile.maxTotalLoops": float64(3)}, 3, "loop cap"},
	} {
		s := &enginetest.Script{Main: []scripted.Reply{
			calls(call("s1", "write_file", map[string]any{"filePath": "tests/world.want", "content": "world"})),
			text("tests written"),
		}}
		x, sid := reconcileEnv(t, s, c.settings)
		v := approve(x, sid)
		m := v.Run.Manifest
		if m.Status.Phase != modes.PhaseFailed || len(v.Run.Diffs) != c.loops || !strings.Contains(m.Status.LastError, c.reason) {
			t.Fatalf("%v: run %+v", c.settings, v.Run)
		}
		// drafting (2) + specifier (2) + one unscripted coder reply per loop
		if n := len(s.Reqs["main"]); n != 4+c.loops {
			t.Fatalf("%d model calls, want %d", n, 4+c.loops)
		}
		x.Close()
	}
}

// blockingScript holds the first coder requests until released, so the
// run can be stopped, and the engine closed, mid-loop.
type blockingScript struct {
	*enginetest.Script
	mu      sync.Mutex
	holds   int
	reached chan int
	release chan struct{}
}

func (b *blockingScript) handle(r *scripted.RecordedRequest) scripted.Reply {
	if len(r.Messages) > 1 && strings.Contains(r.Messages[1].Content, "You are the Coder") {
		b.mu.Lock()
		n := b.holds
		if n > 0 {
			b.holds--
		}
		b.mu.Unlock()
		if n > 0 {
			b.reached <- n
			<-b.release
			return scripted.Reply{Text: "interrupted"}
		}
	}
	return b.Script.Handle(r)
}

// Stop ends a run mid-step and the resume control runs it on; a run
// interrupted by a restart resumes at its saved step too. The coder runs
// again, the specifier never does.
func TestReconcileRunStopResumeAndRestart(t *testing.T) {
	s := &enginetest.Script{Main: []scripted.Reply{
		calls(call("s1", "write_file", map[string]any{"filePath": "tests/world.want", "content": "world"})),
		text("tests written"),
		calls(call("c0", "read_file", map[string]any{"filePath": "app.txt"})),
		calls(call("c1", "write_file", map[string]any{"filePath": "app.txt", "content": "hello\nworld\n"})),
		text("implemented"),
	}}
	x, sid := reconcileEnv(t, s, config.Values{})
	b := &blockingScript{Script: s, holds: 2, reached: make(chan int), release: make(chan struct{})}
	x.Model.SetHandler(b.handle)
	ctx := context.Background()
	if _, _, err := x.E.Modes.ApproveManifest(ctx, sid, ""); err != nil {
		t.Fatal(err)
	}
	<-b.reached
	if v, _ := x.E.Modes.ReconcileState(ctx, sid); !v.Running || v.Run.Step != modes.Coder {
		t.Fatalf("mid-run state %+v", v)
	}
	if _, _, err := x.E.Modes.ApproveManifest(ctx, sid, ""); !errors.Is(err, engine.ErrBusy) {
		t.Fatalf("approve while running: %v", err)
	}
	go x.E.Cancel(sid) // Stop
	b.release <- struct{}{}
	x.E.Wait(sid)
	if v, _ := x.E.Modes.ReconcileState(ctx, sid); v.Running || v.Run.Step != modes.Coder || v.Run.Manifest.Status.Phase != modes.PhaseReconciling {
		t.Fatalf("stopped state %+v", v)
	}
	// The stopped loop turn got no reply: its prompt left the model track.
	if tr := x.Track(sid); len(tr) != 4 || tr[3].Role != llm.RoleAssistant {
		t.Fatalf("the model track after the stop: %+v", tr)
	}
	specifierCalls := len(s.Reqs["main"])

	// Resume, then the sidecar goes away while the coder works.
	if _, _, err := x.E.Send(ctx, engine.SendParams{SessionID: sid, Text: "continue"}); err != nil {
		t.Fatal(err)
	}
	<-b.reached
	done := make(chan struct{})
	go func() { x.Close(); close(done) }()
	b.release <- struct{}{}
	<-done

	x.OpenTrusted(config.Values{}, false)
	x.Model.SetHandler(s.Handle)
	v, ok := x.E.Modes.ReconcileState(ctx, sid)
	if !ok || v.Running || v.Run.Step != modes.Coder || v.Run.Baseline != 1 {
		t.Fatalf("after restart %+v", v)
	}
	if _, _, err := x.E.Modes.ResumeReconcile(ctx, sid); err != nil {
		t.Fatal(err)
	}
	x.E.Wait(sid)
	v, _ = x.E.Modes.ReconcileState(ctx, sid)
	if v.Run.Manifest.Status.Phase != modes.PhaseReady || fmt.Sprint(v.Run.Diffs) != "[0]" {
		t.Fatalf("resumed run %+v", v.Run)
	}
	for _, r := range s.Reqs["main"][specifierCalls:] {
		if strings.Contains(r.Messages[1].Content, "You are the Specifier") {
			t.Fatal("the specifier ran again after the resume")
		}
	}
}

// Approving needs a drafted manifest, and an edited manifest must be valid.
func TestReconcileApproveBadInput(t *testing.T) {
	s := &enginetest.Script{}
	x := enginetest.NewScripted(t, s, config.Values{}, false)
	ctx := context.Background()
	sess, _ := x.E.Sessions.Create(ctx, "")
	if _, _, err := x.E.Modes.ApproveManifest(ctx, sess.ID, ""); !errors.Is(err, moderun.ErrNoManifest) {
		t.Fatalf("no manifest: %v", err)
	}
	if _, _, err := x.E.Modes.ResumeReconcile(ctx, sess.ID); !errors.Is(err, moderun.ErrNoReconcileRun) {
		t.Fatalf("no run: %v", err)
	}
	x.Close()
	x2, sid := reconcileEnv(t, &enginetest.Script{}, config.Values{})
	if _, _, err := x2.E.Modes.ApproveManifest(ctx, sid, `{"metadata":{"name":"greeter"}}`); err == nil || !strings.Contains(err.Error(), "testCommand") {
		t.Fatalf("invalid edit: %v", err)
	}
	if v, _ := x2.E.Modes.ReconcileState(ctx, sid); v.Run.Manifest.Metadata.Approved {
		t.Fatal("an invalid edit approved the run")
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
