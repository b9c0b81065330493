package store

import (
	"context"
	"database/sql"
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

// CancelPendingConfirmations closes every pending confirmation: the tools
// that waited on them died with the previous process.
func (s *Store) CancelPendingConfirmations(ctx context.Context) error {
	return s.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE confirmations SET status = 'cancelled' WHERE status = 'pending'`)
		return err
	})
}
