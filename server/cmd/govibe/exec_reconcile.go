package main

import (
	"context"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/engine"
)

// Reconcile mode headless: a turn that drafts a manifest ends with the
// manifest waiting for the user's approval (the panel's button in the
// editor). Headless, --approve all is that approval: the drafted manifest
// is approved as its file reads and the loop runs in the same process.
// Without it, the run ends at the draft and says so.

// draftedManifest is the session's drafted, unapproved manifest's name
// ("" when it has none).
func draftedManifest(ctx context.Context, eng *engine.Engine, sid string) string {
	if eng.Modes.Mode(ctx, sid) != modes.Reconcile {
		return ""
	}
	v, ok := eng.Modes.ReconcileState(ctx, sid)
	if !ok || v.Run.Manifest.Metadata.Approved {
		return ""
	}
	return v.Run.Manifest.Metadata.Name
}
