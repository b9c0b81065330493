package engine

import (
	"github.com/govibe/govibe/server/internal/rollback"
)

// Snapshots and rollback (the shadow store per root, the before-turn
// records, restores and what they tell the user and the model) are package
// rollback; the engine is its rollback.Host. The turn takes the snapshots
// (before its first mutation, after it, after each reconcile loop); the
// server calls the rest through Rollback.

// Rollback is the snapshots and restores of the workspace roots.
func (e *Engine) Rollback() *rollback.Manager { return e.snaps }
