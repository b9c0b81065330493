package store

import (
	"context"
	"database/sql"
	"strings"
)

// PendingMessage names a message a previous process left pending.
type PendingMessage struct {
	ID        string
	SessionID string
}

// PendingMessages lists messages still pending, oldest first. At start-up
// these are runs a killed process never finalised.
func (s *Store) PendingMessages(ctx context.Context) ([]PendingMessage, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, session_id FROM messages WHERE status = 'pending' ORDER BY created_at, seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PendingMessage
	for rows.Next() {
		var p PendingMessage
		if err := rows.Scan(&p.ID, &p.SessionID); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// CancelPendingConfirmations closes every pending confirmation except
// keep: the tools that waited on them died with the previous process,
// unless the engine resumes them (keep).
func (s *Store) CancelPendingConfirmations(ctx context.Context, keep ...string) error {
	return s.writeTx(ctx, func(tx *sql.Tx) error {
		q := `UPDATE confirmations SET status = 'cancelled', updated_at = ? WHERE status = 'pending'`
		args := []any{s.nowMS()}
		if len(keep) > 0 {
			q += ` AND id NOT IN (?` + strings.Repeat(", ?", len(keep)-1) + `)`
			for _, id := range keep {
				args = append(args, id)
			}
		}
		_, err := tx.ExecContext(ctx, q, args...)
		return err
	})
}

// OpenConfirmations lists every pending confirmation of every session,
// oldest first: at start-up, the questions a previous process left parked.
func (s *Store) OpenConfirmations(ctx context.Context) ([]Confirmation, error) {
	return s.confirmations(ctx, s.r, `WHERE status = 'pending'`)
}
