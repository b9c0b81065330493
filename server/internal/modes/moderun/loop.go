package moderun

import (
	"context"
	"fmt"
	"time"

	"github.com/govibe/govibe/server/internal/modes"
	"github.com/govibe/govibe/server/internal/osbox"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/shell"
	"github.com/govibe/govibe/server/internal/tools"
)

// Agents is what the reconcile loop needs from the turn that drives it.
type Agents interface {
	// Run runs one scoped agent of step to its end under tag
	// ("coder:3"), with StepTools' tools. Max rounds is not a failure.
	Run(ctx context.Context, step modes.Step, tag, prompt string) error
	// Snapshot records the workspace after a loop; message says which.
	Snapshot(ctx context.Context, message string) error
	// Notice tells the user on the turn.
	Notice(text string)
}

// Loop is the modes.Reconciler of one turn that drives the session's
// reconcile loop (modes.RunReconcile holds its rules). Used from the
// turn's goroutine only.
type Loop struct {
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

var _ modes.Reconciler = (*Loop)(nil)

// NewLoop starts a turn's loop on the session's saved run and shows it
// running.
func (m *Modes) NewLoop(ctx context.Context, sid, turnID string, a Agents) (*Loop, error) {
	st, ok, err := sessionstate.Get(ctx, m.store, sid, modes.ReconcileRunKey)
	if err != nil || !ok {
		return nil, fmt.Errorf("no reconcile run to start: %v", err)
	}
	l := &Loop{m: m, a: a, sid: sid, turnID: turnID, st: st}
	l.publish()
	return l, nil
}

// Run runs the loop to Ready or Failed (CrashLoopBackOff) (or ctx's end: the last
// saved step runs again on resume).
func (l *Loop) Run(ctx context.Context) (modes.RunState, error) {
	cs := l.m.host.Settings()
	lim := modes.Limits{MaxTotalLoops: cs.Reconcile.MaxTotalLoops, MaxStagnation: cs.Reconcile.MaxStagnation}
	return modes.RunReconcile(ctx, l, l.st, lim)
}

// Stopped tells the panel the run stopped (or ended), with its last saved
// state.
func (l *Loop) Stopped() {
	l.m.host.Publish(l.sid, l.turnID, Panel{Reconcile: &ReconcileView{Run: l.st, MaxLoops: l.m.MaxLoops()}})
}

func (l *Loop) tag(step modes.Step) string {
	return fmt.Sprintf("%s:%d", step, len(l.st.Diffs)+1)
}

// RunAgent runs one scoped agent to its end: the step's whitelist is
// offered and enforced, and its write tools carry the step's path rule
// (the specifier writes tests only, the coder never does).
func (l *Loop) RunAgent(ctx context.Context, step modes.Step, prompt string) error {
	tag := l.tag(step)
	l.agent, l.last = tag, step
	l.publish()
	return l.a.Run(ctx, step, tag, prompt)
}

// RunTests is the auditor: the manifest's command in the first workspace
// root, with no model call. A failing command is expected (tests fail):
// its exit code comes back as a modes.TestExit with the output; a
// command that could not start is another error.
func (l *Loop) RunTests(ctx context.Context, command string) (string, error) {
	l.agent = fmt.Sprintf("%s:%d", modes.Auditor, len(l.st.Diffs)+1)
	l.publish()
	cs := l.m.host.Settings()
	spec := shell.Spec{Command: command, Cwd: l.m.roots[0],
		Timeout: time.Duration(cs.Reconcile.TestTimeoutMs) * time.Millisecond, MaxOutput: 4 << 20, Passthrough: cs.Shell.Env.Passthrough}
	if cs.Sandbox.Enabled {
		// The approval of the manifest covered running its tests, which may
		// write reports and caches in the workspace, not reaching out.
		if sb := tools.NewSandboxEnv(osbox.Detect(), cs.Sandbox.Mask, cs.Sandbox.MaxProcesses, cs.Sandbox.MaxMemoryMB); sb.On() {
			p := sb.Policy(l.m.roots, tools.SandboxGrant{Write: true})
			spec.Sandbox, spec.SandboxStatus = &p, sb.Status
		}
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
func (l *Loop) Snapshot(ctx context.Context, loop int) error {
	return l.a.Snapshot(ctx, fmt.Sprintf("reconcile %s: loop %d", l.st.Manifest.Metadata.Name, loop))
}

// Save persists the run (session state, so a restart resumes it) and
// writes its status back into the manifest file.
func (l *Loop) Save(ctx context.Context, st modes.RunState) error {
	l.st = st
	if err := sessionstate.Set(ctx, l.m.store, l.sid, modes.ReconcileRunKey, st); err != nil {
		return err
	}
	return l.m.writeManifest(st.Manifest)
}

// Publish tells the panel; the agent shown is the next step's.
func (l *Loop) Publish(st modes.RunState) {
	l.st = st
	l.agent = ""
	l.publish()
}

func (l *Loop) publish() {
	l.m.host.Publish(l.sid, l.turnID, Panel{Reconcile: &ReconcileView{Run: l.st, Running: true, Agent: l.agent, MaxLoops: l.m.MaxLoops()}})
}
