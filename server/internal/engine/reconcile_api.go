package engine

import (
	"context"
	"errors"
	"fmt"
	"github.com/govibe/govibe/server/internal/store"
	"os"
	"path/filepath"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/fsatomic"
	"github.com/govibe/govibe/server/internal/modes"
	"github.com/govibe/govibe/server/internal/planrun"
	"github.com/govibe/govibe/server/internal/sessionstate"
)

// Reconcile mode's controls: a drafted manifest waits for the user's
// approval (possibly after edits), approval starts the loop as a turn,
// Stop is the turn's cancel, and resume runs the saved state on.

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
)

// BadManifestError is a manifest the user approved (or edited) that does
// not parse or validate; Err says why, in the words the model also gets.
type BadManifestError struct{ Err error }

func (e *BadManifestError) Error() string { return e.Err.Error() }
func (e *BadManifestError) Unwrap() error { return e.Err }

// ReconcileState is the session's run (ok false when it has none).
func (e *Engine) ReconcileState(ctx context.Context, sid string) (ReconcileView, bool) {
	st, ok, err := sessionstate.Get(ctx, e.Store, sid, sessionstate.ReconcileRun)
	if err != nil || !ok {
		return ReconcileView{}, false
	}
	return ReconcileView{Run: st, Running: e.Running(sid) != "" && e.reconciling(sid), MaxLoops: e.maxLoops()}, true
}

func (e *Engine) reconciling(sid string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.running[sid]
	return t != nil && t.reconcile
}

// manifestFile is where a manifest lives in the first workspace root.
func (e *Engine) manifestFile(name string) string {
	return filepath.Join(e.opts.Roots[0], filepath.FromSlash(modes.ManifestPath(name)))
}

// writeManifest writes a manifest (with its status) back to its file.
func (e *Engine) writeManifest(m modes.Manifest) error {
	b, err := modes.EncodeManifest(m)
	if err != nil {
		return err
	}
	p := e.manifestFile(m.Metadata.Name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return fsatomic.WriteFile(p, b, 0o644)
}

// onManifestDrafted records a manifest the drafting turn wrote: it becomes
// the session's run, unapproved, and the panel shows it for approval. An
// invalid manifest is reported to the model, which can fix it.
func (e *Engine) onManifestDrafted(ctx context.Context, sid, turnID, path string) error {
	if len(e.opts.Roots) == 0 {
		return ErrNoWorkspace
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(e.opts.Roots[0], path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	m, err := modes.ParseManifest(b)
	if err != nil {
		return err
	}
	m.Metadata.Approved = false
	st := modes.RunState{Manifest: m}
	if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.ReconcileRun, st); err != nil {
		return err
	}
	e.Bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: KindMode, Payload: ReconcileView{Run: st, MaxLoops: e.maxLoops()}})
	return nil
}

// ApproveManifest approves the session's drafted manifest and starts the
// loop. edited, when not empty, is the manifest as the user edited it
// (the whole JSON); otherwise the file is read as it is now, so edits
// made in the editor count too. A new run starts from the specifier.
func (e *Engine) ApproveManifest(ctx context.Context, sid, edited string) (string, string, error) {
	cur, ok, err := sessionstate.Get(ctx, e.Store, sid, sessionstate.ReconcileRun)
	if err != nil {
		return "", "", err
	}
	if !ok {
		return "", "", ErrNoManifest
	}
	if len(e.opts.Roots) == 0 {
		return "", "", ErrNoWorkspace
	}
	if e.Running(sid) != "" {
		return "", "", ErrBusy
	}
	var b []byte
	if edited != "" {
		b = []byte(edited)
	} else if b, err = os.ReadFile(e.manifestFile(cur.Manifest.Metadata.Name)); err != nil {
		return "", "", fmt.Errorf("reading the manifest: %w", err)
	}
	m, err := modes.ParseManifest(b)
	if err != nil {
		return "", "", &BadManifestError{Err: err}
	}
	m.Metadata.Approved = true
	m.Status = modes.ManifestStatus{Phase: modes.PhasePending}
	if err := e.writeManifest(m); err != nil {
		return "", "", err
	}
	if err := e.SetMode(ctx, sid, string(modes.Reconcile)); err != nil {
		return "", "", err
	}
	if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.ReconcileRun, modes.RunState{Manifest: m}); err != nil {
		return "", "", err
	}
	return e.startReconcile(ctx, sid, e.tr("Reconcile %s: approved, starting the loop.", m.Metadata.Name))
}

// ResumeReconcile runs a stopped or interrupted run on from its saved step.
func (e *Engine) ResumeReconcile(ctx context.Context, sid string) (string, string, error) {
	st, ok, err := sessionstate.Get(ctx, e.Store, sid, sessionstate.ReconcileRun)
	if err != nil {
		return "", "", err
	}
	if !ok || !st.Manifest.Metadata.Approved {
		return "", "", ErrNoReconcileRun
	}
	if p := st.Manifest.Status.Phase; p == modes.PhaseReady || p == modes.PhaseCrashLoop {
		return "", "", ErrReconcileEnded
	}
	return e.startReconcile(ctx, sid, e.tr("Reconcile %s: resuming at the %s.", st.Manifest.Metadata.Name, firstNonEmpty(string(st.Step), string(modes.Specifier))))
}

func (e *Engine) startReconcile(ctx context.Context, sid, text string) (string, string, error) {
	return e.Send(ctx, SendParams{SessionID: sid, Text: text, reconcile: true, origin: store.OriginControl})
}

// ErrNoWorkspace is a reconcile control without a workspace folder: the
// manifest and the test command live in the first one.
var ErrNoWorkspace = errors.New("reconcile mode needs an open workspace folder")

// resumesReconcile says whether a message sent in Reconcile mode asks to
// continue ("continue", "resume") an approved run that has not ended.
func (e *Engine) resumesReconcile(ctx context.Context, sid, text string) bool {
	if sid == "" || !isContinue(text) || e.Mode(ctx, sid) != modes.Reconcile {
		return false
	}
	st, ok, err := sessionstate.Get(ctx, e.Store, sid, sessionstate.ReconcileRun)
	if err != nil || !ok || !st.Manifest.Metadata.Approved {
		return false
	}
	p := st.Manifest.Status.Phase
	return p != modes.PhaseReady && p != modes.PhaseCrashLoop
}

var isContinue = planrun.IsResumeText

func (e *Engine) maxLoops() int {
	return modes.Limits{MaxTotalLoops: config.Typed(e.Settings()).Reconcile.MaxTotalLoops}.Normalized().MaxTotalLoops
}
