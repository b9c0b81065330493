package moderun

import (
	"context"
	"fmt"
	"time"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/workspace/shell"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Agents is the one interface a turn that drives the reconcile loop
// implements: RunLoop keeps the rest (modes.Reconciler, the saved run, the
// panel) inside this package.
type Agents interface {
	// Run runs one scoped agent of step to its end under tag
	// ("coder:3"), with StepTools' tools. Max rounds is not a failure.
	Run(ctx context.Context, step modes.Step, tag, prompt string) error
	// Snapshot records the workspace after a loop; message says which.
	Snapshot(ctx context.Context, message string) error
	// Notice tells the user on the turn.
	Notice(text string)
}

// loop is the modes.Reconciler of one turn that drives the session's
// reconcile loop (modes.RunReconcile holds its rules). Used from the
// turn's goroutine only.
type loop struct {
	m      *Modes
	a      Agents
	sid    string
	turnID string
	// st is the last state saved, published with the agent now running.
	st    modes.RunState
	agent string
	// last is the step whose work the next test run checks; "" for the
	// run before the specifier (what already fails).
	last modes.Step
}

var _ modes.Reconciler = (*loop)(nil)

// RunLoop runs the session's saved, approved reconcile run in turn turnID
// to Ready or Failed (CrashLoopBackOff) (or ctx's end: the last saved
// step runs again on resume), with a's agents. The panel shows it running,
// and learns it stopped (or ended) whatever happened.
func (m *Modes) RunLoop(ctx context.Context, sid, turnID string, a Agents) (modes.RunState, error) {
	st, ok, err := sessionstate.Get(ctx, m.store, sid, modes.ReconcileRunKey)
	if err != nil || !ok {
		return modes.RunState{}, fmt.Errorf("no reconcile run to start: %v", err)
	}
	l := &loop{m: m, a: a, sid: sid, turnID: turnID, st: st}
	l.publish()
	defer l.stopped()
	return l.run(ctx)
}

func (l *loop) run(ctx context.Context) (modes.RunState, error) {
	cs := l.m.host.Settings()
	lim := modes.Limits{MaxTotalLoops: cs.Reconcile.MaxTotalLoops, MaxStagnation: cs.Reconcile.MaxStagnation}
	return modes.RunReconcile(ctx, l, l.st, lim)
}

// stopped tells the panel the run stopped (or ended), with its last saved
// state.
func (l *loop) stopped() {
	l.m.host.Publish(l.sid, l.turnID, Panel{Reconcile: &ReconcileView{Run: l.st, MaxLoops: l.m.MaxLoops()}})
}

func (l *loop) tag(step modes.Step) string {
	return fmt.Sprintf("%s:%d", step, len(l.st.Diffs)+1)
}

// RunAgent runs one scoped agent to its end: the step's whitelist is
// offered and enforced, and its write tools carry the step's path rule
// (the specifier writes tests only, the coder never does).
func (l *loop) RunAgent(ctx context.Context, step modes.Step, prompt string) error {
	tag := l.tag(step)
	l.agent, l.last = tag, step
	l.publish()
	return l.a.Run(ctx, step, tag, prompt)
}

// RunTests is the auditor: the manifest's command in the first workspace
// root, with no model call. A failing command is expected (tests fail):
// its exit code comes back as a modes.TestExit with the output; a
// command that could not start is another error.
func (l *loop) RunTests(ctx context.Context, command string) (string, error) {
	l.agent = fmt.Sprintf("%s:%d", modes.Auditor, len(l.st.Diffs)+1)
	l.publish()
	cs := l.m.host.Settings()
	spec := shell.Spec{Command: command, Cwd: l.m.roots[0],
		Timeout: time.Duration(cs.Reconcile.TestTimeoutMs) * time.Millisecond, MaxOutput: 4 << 20, Passthrough: cs.Shell.Env.Passthrough}
	// The approval of the manifest covered running its tests, which may
	// write reports and caches in the workspace, not reaching out.
	if sb := tools.SandboxFromSettings(cs.Sandbox); sb.On() {
		p := sb.Policy(l.m.roots, tools.SandboxGrant{Write: true})
		spec.Sandbox, spec.SandboxStatus = &p, sb.Status
	}
	res, err := shell.Run(ctx, spec)
	if err != nil {
		return "", err
	}
	if res.TimedOut {
		return "", fmt.Errorf("the test command timed out after %d ms", cs.Reconcile.TestTimeoutMs)
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	out := res.Stdout + "\n" + res.Stderr
	var exit error
	if res.ExitCode != 0 {
		exit = &modes.TestExit{Code: res.ExitCode}
	}
	last := l.last
	l.last = ""
	if d, perr := modes.ParseDiff(out); perr == nil {
		if last == "" {
			l.a.Notice(l.m.host.Tr("Auditor, before the specifier: %d failing, %d passing.", d.Failed, d.Passed))
		} else if last == modes.Specifier {
			l.a.Notice(l.m.host.Tr("Auditor, on the specifier's tests: %d failing, %d passing.", d.Failed, d.Passed))
		} else {
			l.a.Notice(l.m.host.Tr("Auditor, after loop %d: %d failing, %d passing.", len(l.st.Diffs)+1, d.Failed, d.Passed))
		}
	}
	return out, exit
}

// Snapshot records the workspace after a loop.
func (l *loop) Snapshot(ctx context.Context, loop int) error {
	return l.a.Snapshot(ctx, fmt.Sprintf("reconcile %s: loop %d", l.st.Manifest.Metadata.Name, loop))
}

// Save persists the run (session state, so a restart resumes it) and
// writes its status back into the manifest file.
func (l *loop) Save(ctx context.Context, st modes.RunState) error {
	l.st = st
	if err := sessionstate.Set(ctx, l.m.store, l.sid, modes.ReconcileRunKey, st); err != nil {
		return err
	}
	return l.m.writeManifest(st.Manifest)
}

// Publish tells the panel; the agent shown is the next step's.
func (l *loop) Publish(st modes.RunState) {
	l.st = st
	l.agent = ""
	l.publish()
}

func (l *loop) publish() {
	l.m.host.Publish(l.sid, l.turnID, Panel{Reconcile: &ReconcileView{Run: l.st, Running: true, Agent: l.agent, MaxLoops: l.m.MaxLoops()}})
}
