package store

import (
	"context"
	"database/sql"
)

// PendingMessage names a message still pending: a run in progress (in this
// process or another one, see owner.go) or one whose process is gone and
// never finalised it.
type PendingMessage struct {
	ID        string
	SessionID string
	// Owner is the lease id of the process running it ('' before leases).
	Owner string
}

// PendingMessages lists every pending message, oldest first. At start-up
// those whose owner is gone are runs to recover.
func (s *Store) PendingMessages(ctx context.Context) ([]PendingMessage, error) {
	return s.pendingMessages(ctx, `status = 'pending'`)
}

// PendingMessagesOf lists the session's pending messages, oldest first:
// opening a session settles those whose owner is gone.
func (s *Store) PendingMessagesOf(ctx context.Context, sessionID string) ([]PendingMessage, error) {
	return s.pendingMessages(ctx, `session_id = ? AND status = 'pending'`, sessionID)
}

func (s *Store) pendingMessages(ctx context.Context, where string, args ...any) ([]PendingMessage, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, session_id, owner FROM messages WHERE `+where+` ORDER BY created_at, seq`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PendingMessage
	for rows.Next() {
		var p PendingMessage
		if err := rows.Scan(&p.ID, &p.SessionID, &p.Owner); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// ClaimRun makes this process the owner of the pending message id, still
// owned by from (a process that is gone), together with from's pending
// confirmations in its session. It reports false when the message is no
// longer pending or another process claimed it first: of two windows
// starting at once, only one recovers a run.
func (s *Store) ClaimRun(ctx context.Context, messageID, from string) (bool, error) {
	claimed := false
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		var sid string
		err := tx.QueryRowContext(ctx, `UPDATE messages SET owner = ? WHERE id = ? AND status = 'pending' AND owner = ? RETURNING session_id`,
			s.lease.id, messageID, from).Scan(&sid)
		if err == sql.ErrNoRows {
			return nil
		}
		if err != nil {
			return err
		}
		claimed = true
		_, err = tx.ExecContext(ctx, `UPDATE confirmations SET owner = ? WHERE session_id = ? AND status = 'pending' AND owner = ?`,
			s.lease.id, sid, from)
		return err
	})
	return claimed, err
}

// CancelConfirmation closes the pending confirmation id, still owned by
// from: the tool that waited on it died with that process. It reports
// false when it was answered, closed or claimed meanwhile.
func (s *Store) CancelConfirmation(ctx context.Context, id, from string) (bool, error) {
	var n int64
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE confirmations SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'pending' AND owner = ?`,
			s.nowMS(), id, from)
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	return n == 1, err
}

// OpenConfirmations lists every pending confirmation of every session,
// oldest first: at start-up, the questions a previous process left parked.
func (s *Store) OpenConfirmations(ctx context.Context) ([]Confirmation, error) {
	return s.confirmations(ctx, s.r, `WHERE status = 'pending'`)
}

// runningElsewhere reports ErrRunningElsewhere when another live process
// has a pending message in the session. Called inside the write
// transaction that starts a turn, so two windows cannot both start one.
func (s *Store) runningElsewhere(ctx context.Context, tx *sql.Tx, sessionID string) error {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT owner FROM messages WHERE session_id = ? AND status = 'pending' AND owner != ?`, sessionID, s.lease.id)
	if err != nil {
		return err
	}
	var owners []string
	for rows.Next() {
		var o string
		if err := rows.Scan(&o); err != nil {
			rows.Close()
			return err
		}
		owners = append(owners, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, o := range owners {
		if s.OwnerAlive(o) {
			return ErrRunningElsewhere
		}
	}
	return nil
}
