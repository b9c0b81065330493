package moderun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/scheduler/planrun"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/util/fsatomic"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// Reconcile mode's controls: /reconcile <intent> switches the session to
// Reconcile and turns the intent into a drafting turn whose only writable
// file is the manifest (through the normal write confirmation); a drafted
// manifest waits for the user's approval (possibly after edits), approval
// starts the loop as a turn, Stop is the turn's cancel, and resume runs
// the saved state on.

// ReconcileView is a run as its panel shows it.
type ReconcileView struct {
	Run modes.RunState
	// Running is true while a turn drives the loop.
	Running bool
	// Agent is the scoped agent now running ("coder:3"), "" between steps.
	Agent string
	// MaxLoops is the loop cap (govibe.reconcile.maxTotalLoops).
	MaxLoops int
}

// Errors of the reconcile controls.
var (
	ErrNoManifest     = errors.New("there is no drafted manifest to approve: use /reconcile <intent> first")
	ErrNoReconcileRun = errors.New("there is no reconcile run to resume")
	ErrReconcileEnded = errors.New("the reconcile run has ended; approve the manifest again to start a new run")
	// ErrNoWorkspace is a reconcile control without a workspace folder:
	// the manifest and the test command live in the first one.
	ErrNoWorkspace = errors.New("reconcile mode needs an open workspace folder")
)

// BadManifestError is a manifest the user approved (or edited) that does
// not parse or validate; Err says why, in the words the model also gets.
type BadManifestError struct{ Err error }

func (e *BadManifestError) Error() string { return e.Err.Error() }
func (e *BadManifestError) Unwrap() error { return e.Err }

// ReconcileState is the session's run (ok false when it has none).
func (m *Modes) ReconcileState(ctx context.Context, sid string) (ReconcileView, bool) {
	st, ok, err := sessionstate.Get(ctx, m.store, sid, modes.ReconcileRunKey)
	if err != nil || !ok {
		return ReconcileView{}, false
	}
	return ReconcileView{Run: st, Running: m.host.Reconciling(sid), MaxLoops: m.MaxLoops()}, true
}

// manifestFile is where a manifest lives in the first workspace root.
func (m *Modes) manifestFile(name string) string {
	return filepath.Join(m.roots[0], filepath.FromSlash(modes.ManifestPath(name)))
}

// writeManifest writes a manifest (with its status) back to its file.
func (m *Modes) writeManifest(mf modes.Manifest) error {
	b, err := modes.EncodeManifest(mf)
	if err != nil {
		return err
	}
	p := m.manifestFile(mf.Metadata.Name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return fsatomic.WriteFile(p, b, 0o644)
}

// onManifestDrafted records a manifest the drafting turn wrote: it becomes
// the session's run, unapproved, and the panel shows it for approval. An
// invalid manifest is reported to the model, which can fix it.
func (m *Modes) onManifestDrafted(ctx context.Context, sid, turnID, path string) error {
	if len(m.roots) == 0 {
		return ErrNoWorkspace
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(m.roots[0], path)
	}
	b, err := safefile.ReadFile(path, maxManifest)
	if err != nil {
		return err
	}
	mf, err := modes.ParseManifest(b)
	if err != nil {
		return err
	}
	mf.Metadata.Approved = false
	st := modes.RunState{Manifest: mf}
	if err := sessionstate.Set(ctx, m.store, sid, modes.ReconcileRunKey, st); err != nil {
		return err
	}
	m.host.Publish(sid, turnID, Panel{Reconcile: &ReconcileView{Run: st, MaxLoops: m.MaxLoops()}})
	return nil
}

// ApproveManifest approves the session's drafted manifest and starts the
// loop. edited, when not empty, is the manifest as the user edited it
// (the whole JSON); otherwise the file is read as it is now, so edits
// made in the editor count too. A new run starts from the specifier.
func (m *Modes) ApproveManifest(ctx context.Context, sid, edited string) (string, string, error) {
	cur, ok, err := sessionstate.Get(ctx, m.store, sid, modes.ReconcileRunKey)
	if err != nil {
		return "", "", err
	}
	if !ok {
		return "", "", ErrNoManifest
	}
	if len(m.roots) == 0 {
		return "", "", ErrNoWorkspace
	}
	if err := m.host.CheckIdle(sid); err != nil {
		return "", "", err
	}
	var b []byte
	if edited != "" {
		b = []byte(edited)
	} else if b, err = safefile.ReadFile(m.manifestFile(cur.Manifest.Metadata.Name), maxManifest); err != nil {
		return "", "", fmt.Errorf("reading the manifest: %w", err)
	}
	mf, err := modes.ParseManifest(b)
	if err != nil {
		return "", "", &BadManifestError{Err: err}
	}
	mf.Metadata.Approved = true
	mf.Status = modes.ManifestStatus{Phase: modes.PhasePending}
	if err := m.writeManifest(mf); err != nil {
		return "", "", err
	}
	if err := m.Set(ctx, sid, string(modes.Reconcile)); err != nil {
		return "", "", err
	}
	if err := sessionstate.Set(ctx, m.store, sid, modes.ReconcileRunKey, modes.RunState{Manifest: mf}); err != nil {
		return "", "", err
	}
	return m.host.StartReconcile(ctx, sid, m.host.Tr("Reconcile %s: approved, starting the loop.", mf.Metadata.Name))
}

// ResumeReconcile runs a stopped or interrupted run on from its saved step.
func (m *Modes) ResumeReconcile(ctx context.Context, sid string) (string, string, error) {
	st, ok, err := sessionstate.Get(ctx, m.store, sid, modes.ReconcileRunKey)
	if err != nil {
		return "", "", err
	}
	if !ok || !st.Manifest.Metadata.Approved {
		return "", "", ErrNoReconcileRun
	}
	if modes.Ended(st.Manifest.Status.Phase) {
		return "", "", ErrReconcileEnded
	}
	step := string(st.Step)
	if step == "" {
		step = string(modes.Specifier)
	}
	return m.host.StartReconcile(ctx, sid, m.host.Tr("Reconcile %s: resuming at the %s.", st.Manifest.Metadata.Name, step))
}

// ResumesReconcile says whether a message sent in Reconcile mode asks to
// continue ("continue", "resume") an approved run that has not ended.
func (m *Modes) ResumesReconcile(ctx context.Context, sid, text string) bool {
	return m.Turn(ctx, sid).ResumesReconcile(ctx, text)
}

// ResumesReconcile is Modes.ResumesReconcile in this turn's mode.
func (t Turn) ResumesReconcile(ctx context.Context, text string) bool {
	m, sid := t.m, t.sid
	if sid == "" || !planrun.IsResumeText(text) || t.mode != modes.Reconcile {
		return false
	}
	st, ok, err := sessionstate.Get(ctx, m.store, sid, modes.ReconcileRunKey)
	if err != nil || !ok || !st.Manifest.Metadata.Approved {
		return false
	}
	return !modes.Ended(st.Manifest.Status.Phase)
}

// MaxLoops is the loop cap in effect.
func (m *Modes) MaxLoops() int {
	return modes.Limits{MaxTotalLoops: m.host.Settings().Reconcile.MaxTotalLoops}.Normalized().MaxTotalLoops
}

// DraftText is a plain message typed in Reconcile mode as the turn's
// text: the drafting prompt for that intent (as /reconcile <intent>),
// unless an approved run is under way, whose session takes questions as
// ordinary turns. ok is false when the message is not a draft.
func (m *Modes) DraftText(ctx context.Context, sid, text string) (string, bool) {
	return m.Turn(ctx, sid).DraftText(ctx, text)
}

// DraftText is Modes.DraftText in this turn's mode.
func (t Turn) DraftText(ctx context.Context, text string) (string, bool) {
	m, sid := t.m, t.sid
	if sid == "" || t.mode != modes.Reconcile || planrun.IsResumeText(text) {
		return "", false
	}
	st, ok, err := sessionstate.Get(ctx, m.store, sid, modes.ReconcileRunKey)
	if err == nil && ok && st.Manifest.Metadata.Approved && !modes.Ended(st.Manifest.Status.Phase) {
		return "", false
	}
	return modes.DraftPrompt(text), true
}

// DraftCommand handles "/reconcile <intent>": the session switches to
// Reconcile mode and the turn's text is the drafting prompt.
func (m *Modes) DraftCommand(ctx context.Context, sid, args string) (string, error) {
	intent := strings.TrimSpace(args)
	if intent == "" {
		return "", errors.New(m.host.Tr("/reconcile needs an intent, e.g. /reconcile a snake game in React"))
	}
	if sid == "" {
		return "", errors.New(m.host.Tr("/reconcile needs an open session"))
	}
	if err := m.Set(ctx, sid, string(modes.Reconcile)); err != nil {
		return "", err
	}
	return modes.DraftPrompt(intent), nil
}

// maxManifest bounds the read of a Vibe Manifest in the workspace: a FIFO
// or a device in its place is refused by kind, not waited on (issue 31).
const maxManifest = 8 << 20
