package rollback

import (
	"context"
	"errors"
	"fmt"

	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

// ErrNoTurnSnapshot: the turn changed nothing (or its snapshot was pruned),
// so there is no "before" to go back to.
var ErrNoTurnSnapshot = errors.New("no snapshot was taken before this turn, so it cannot be rolled back")

// RootRestore is what rolling a turn back does (or would do) to one root.
type RootRestore struct {
	Root   string
	Target snapshot.Info
	// Changed lists paths written or removed; Kept, paths left alone (the
	// user's work, ignored or unsnapshotted files).
	Changed []snapshot.Change
	Kept    []snapshot.Change
	// UndoID is the safety snapshot taken before restoring ("" in a dry run).
	UndoID string
}

// TurnRestore is the outcome of RestoreTurn, one entry per root.
type TurnRestore struct {
	Roots []RootRestore
	// Notice is the sentence shown to the user in the chat.
	Notice string
}

// Files counts changed paths over every root.
func (r TurnRestore) Files() (changed, kept, folders int) {
	for _, x := range r.Roots {
		changed += len(x.Changed)
		kept += len(x.Kept)
		if len(x.Changed) > 0 {
			folders++
		}
	}
	return changed, kept, folders
}

// RestoreTurn brings every root back to how it was before the turn. With
// dryRun it only reports what would change. Otherwise it stops running
// turns, takes a safety snapshot of every root before touching any (so the
// whole operation can be undone), restores each root, and records a
// notice for the user and a note for the model.
func (m *Manager) RestoreTurn(ctx context.Context, sid, turnID string, dryRun bool) (TurnRestore, error) {
	refs := m.TurnSnapshots(ctx, sid)[turnID]
	if len(refs) == 0 {
		return TurnRestore{}, ErrNoTurnSnapshot
	}
	type target struct {
		st   *snapshot.Store
		info snapshot.Info
		root string
	}
	targets := make([]target, 0, len(refs))
	for _, r := range refs {
		st, info, err := m.find(r.ID)
		if err != nil {
			return TurnRestore{}, err
		}
		targets = append(targets, target{st: st, info: info, root: r.Root})
	}
	var out TurnRestore
	if dryRun {
		for _, t := range targets {
			cs, err := t.st.Diff(ctx, t.info.ID)
			if err != nil {
				return TurnRestore{}, err
			}
			rr := RootRestore{Root: t.root, Target: t.info}
			for _, c := range cs {
				if c.Kind == snapshot.Kept {
					rr.Kept = append(rr.Kept, c)
				} else {
					rr.Changed = append(rr.Changed, c)
				}
			}
			out.Roots = append(out.Roots, rr)
		}
		return out, nil
	}
	m.host.CancelAll()
	text := m.turnText(ctx, turnID)
	for _, t := range targets {
		// The transcript may have been cleared; a snapshot taken for the
		// turn still names it.
		if text == "" && t.info.TurnID == turnID {
			text = t.info.Message
		}
	}
	turn := targets[0].info.Turn
	for _, t := range targets {
		if _, _, err := t.st.Snapshot(ctx, snapshot.Meta{SessionID: sid, Turn: turn, TurnID: turnID, Message: text,
			Reason: snapshot.ReasonSafety}); err != nil {
			return TurnRestore{}, fmt.Errorf("safety snapshot of %s before restoring: %w", t.root, err)
		}
	}
	var errs []error
	for _, t := range targets {
		res, err := t.st.Restore(ctx, t.info.ID)
		out.Roots = append(out.Roots, RootRestore{Root: t.root, Target: t.info, Changed: res.Changed, Kept: res.Kept, UndoID: res.Before.ID})
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", t.root, err))
		}
	}
	changed, kept, folders := out.Files()
	out.Notice = m.restoreNotice(text, changed, kept, folders)
	m.addRestoreNotes(ctx, sid, out.Notice, turnRestoreNote(text, out))
	if len(errs) < len(targets) {
		m.markRolledBack(ctx, sid, turnID)
	}
	return out, errors.Join(errs...)
}

// turnText is the first line of a turn's user message, for notices.
func (m *Manager) turnText(ctx context.Context, turnID string) string {
	msg, err := m.store.GetMessage(ctx, turnID)
	if err != nil {
		return ""
	}
	return firstLine(msg.Text(), 80)
}

func firstLine(s string, max int) string {
	for i, r := range s {
		if r == '\n' || r == '\r' {
			s = s[:i]
			break
		}
	}
	if rs := []rune(s); len(rs) > max {
		s = string(rs[:max-1]) + "…"
	}
	return s
}
