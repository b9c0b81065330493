package engine

import (
	"github.com/govibe/govibe/server/internal/modes/moderun"
)

// Reconcile mode's controls live in moderun; these names keep the
// engine's API (the server's error mapping, the panel's payload type).

// ReconcileView is a run as its panel shows it.
type ReconcileView = moderun.ReconcileView

// BadManifestError is a manifest the user approved (or edited) that does
// not parse or validate.
type BadManifestError = moderun.BadManifestError

// Errors of the reconcile controls.
var (
	ErrNoManifest     = moderun.ErrNoManifest
	ErrNoReconcileRun = moderun.ErrNoReconcileRun
	ErrReconcileEnded = moderun.ErrReconcileEnded
	ErrNoWorkspace    = moderun.ErrNoWorkspace
)
