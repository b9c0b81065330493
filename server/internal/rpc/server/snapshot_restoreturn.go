package server

import (
	"context"
	"errors"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/workspace/rollback"
)

// SnapshotRestoreTurn rolls every root back to before a turn, or with
// DryRun says what that would change.
func (s *Server) SnapshotRestoreTurn(ctx context.Context, p *protocol.SnapshotRestoreTurnParams) (*protocol.SnapshotRestoreTurnResult, error) {
	if p.SessionID == "" || p.TurnID == "" {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "sessionId and turnId are required")
	}
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	res, err := eng.Rollback.RestoreTurn(ctx, p.SessionID, p.TurnID, p.DryRun)
	out := &protocol.SnapshotRestoreTurnResult{Roots: make([]protocol.RootRestore, 0, len(res.Roots)), Notice: res.Notice}
	for _, r := range res.Roots {
		out.Roots = append(out.Roots, protocol.RootRestore{Root: r.Root, SnapshotID: r.Target.ID,
			Changes: toFileChanges(r.Changed), Kept: toKeptChanges(r.Kept), UndoID: r.UndoID})
	}
	switch {
	case errors.Is(err, rollback.ErrNoTurnSnapshot):
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "%s", eng.Tr("No snapshot was taken before this turn, so it cannot be rolled back."))
	case err != nil && len(out.Roots) == 0:
		return nil, protocol.Errorf(protocol.CodeInternalError, "restore failed: %s", err.Error())
	case err != nil:
		// Some roots were restored: say which failed, and how to undo.
		return nil, protocol.Errorf(protocol.CodeInternalError, "restore failed for part of the workspace (%s); %s", err.Error(), undoHint(out.Roots))
	}
	return out, nil
}

func undoHint(roots []protocol.RootRestore) string {
	hint := "each restored folder can be undone from its safety snapshot:"
	for _, r := range roots {
		if r.UndoID != "" {
			hint += " " + r.Root + " → " + r.UndoID[:min(12, len(r.UndoID))]
		}
	}
	return hint
}
