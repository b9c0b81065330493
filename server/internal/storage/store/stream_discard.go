package store

import (
	"context"
	"database/sql"
)

// DiscardTail drops the trailing text and reasoning parts, committed or
// buffered: a model stream that broke and is being retried must not leave
// its partial text behind, on screen or on disk.
func (w *StreamWriter) DiscardTail(ctx context.Context) error {
	var keep int
	err := w.commit(ctx, false, func(parts []Part) ([]Part, int, error) {
		keep = len(parts)
		for keep > 0 && (parts[keep-1].Kind == PartText || parts[keep-1].Kind == PartReasoning) {
			keep--
		}
		return parts[:keep], keep, nil
	}, nil, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM message_parts WHERE message_id = ? AND idx >= ?`, w.messageID, keep)
		return err
	})
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.tailOpen = false
	w.tail.Reset()
	w.mu.Unlock()
	return nil
}
