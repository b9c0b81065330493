package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// ConfirmationStatus is the state of a question put to the user.
type ConfirmationStatus string

const (
	ConfirmPending   ConfirmationStatus = "pending"
	ConfirmApproved  ConfirmationStatus = "approved"
	ConfirmRejected  ConfirmationStatus = "rejected"
	ConfirmCancelled ConfirmationStatus = "cancelled"
)

// Confirmation is a suspended question (tool approval, ask-user) that must
// still be visible, and answerable, after a reload.
type Confirmation struct {
	ID         string             `json:"id"`
	SessionID  string             `json:"session_id"`
	MessageID  string             `json:"message_id,omitempty"`
	ToolCallID string             `json:"tool_call_id,omitempty"`
	Kind       string             `json:"kind"`
	Payload    json.RawMessage    `json:"payload"`
	Status     ConfirmationStatus `json:"status"`
	Response   json.RawMessage    `json:"response,omitempty"`
	Created    time.Time          `json:"created"`
	Updated    time.Time          `json:"updated"`
	// Owner is the lease id of the process that asked (owner.go); not
	// exported: it means nothing in another database.
	Owner string `json:"-"`
}

// NewConfirmation describes a confirmation to create.
type NewConfirmation struct {
	MessageID  string
	ToolCallID string
	Kind       string
	Payload    json.RawMessage
}

// CreateConfirmation records a pending confirmation.
func (s *Store) CreateConfirmation(ctx context.Context, sessionID string, nc NewConfirmation) (Confirmation, error) {
	if nc.Kind == "" {
		return Confirmation{}, invalidf("confirmation kind is empty")
	}
	if !json.Valid(nc.Payload) {
		return Confirmation{}, invalidf("confirmation payload is not valid JSON")
	}
	now := s.nowMS()
	c := Confirmation{ID: newID(), SessionID: sessionID, MessageID: nc.MessageID, ToolCallID: nc.ToolCallID, Kind: nc.Kind,
		Payload: nc.Payload, Status: ConfirmPending, Created: fromMS(now), Updated: fromMS(now), Owner: s.lease.id}
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		if err := s.sessionExists(ctx, tx, sessionID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO confirmations (id, session_id, message_id, tool_call_id, kind, payload, status, created_at, updated_at, owner)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.ID, sessionID, c.MessageID, c.ToolCallID, c.Kind, string(c.Payload), c.Status, now, now, s.lease.id)
		return err
	})
	if err != nil {
		return Confirmation{}, err
	}
	return c, nil
}

// ResolveConfirmation answers a pending confirmation. response may be nil.
// Answering twice is an error, so a double click cannot run a tool twice.
func (s *Store) ResolveConfirmation(ctx context.Context, id string, st ConfirmationStatus, response json.RawMessage) error {
	if st != ConfirmApproved && st != ConfirmRejected && st != ConfirmCancelled {
		return invalidf("confirmation status %q (want approved, rejected or cancelled)", st)
	}
	var resp any
	if response != nil {
		if !json.Valid(response) {
			return invalidf("confirmation response is not valid JSON")
		}
		resp = string(response)
	}
	return s.writeTx(ctx, func(tx *sql.Tx) error {
		var cur ConfirmationStatus
		err := tx.QueryRowContext(ctx, `SELECT status FROM confirmations WHERE id = ?`, id).Scan(&cur)
		if errors.Is(err, sql.ErrNoRows) {
			return notFoundf("confirmation %q", id)
		}
		if err != nil {
			return err
		}
		if cur != ConfirmPending {
			return invalidf("confirmation %s is already %s", id, cur)
		}
		_, err = tx.ExecContext(ctx, `UPDATE confirmations SET status = ?, response = ?, updated_at = ? WHERE id = ?`, st, resp, s.nowMS(), id)
		return err
	})
}

// PendingConfirmations lists the session's unanswered confirmations,
// oldest first.
func (s *Store) PendingConfirmations(ctx context.Context, sessionID string) ([]Confirmation, error) {
	return s.confirmations(ctx, s.r, `WHERE session_id = ? AND status = 'pending'`, sessionID)
}

func (s *Store) confirmations(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, where string, args ...any) ([]Confirmation, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, session_id, message_id, tool_call_id, kind, payload, status, response, created_at, updated_at, owner
		FROM confirmations `+where+` ORDER BY created_at, id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Confirmation{}
	for rows.Next() {
		var c Confirmation
		var payload string
		var resp sql.NullString
		var created, updated int64
		if err := rows.Scan(&c.ID, &c.SessionID, &c.MessageID, &c.ToolCallID, &c.Kind, &payload, &c.Status, &resp, &created, &updated, &c.Owner); err != nil {
			return nil, err
		}
		c.Payload = json.RawMessage(payload)
		if resp.Valid {
			c.Response = json.RawMessage(resp.String)
		}
		c.Created, c.Updated = fromMS(created), fromMS(updated)
		out = append(out, c)
	}
	return out, rows.Err()
}

// CallDecisions lists the session's answered confirmations of tool calls
// (approved or rejected; questions the engine asked for itself, such as the
// budget's, have no call), the newest limit of them oldest first, and how
// many older ones there are. An edit's contents and a dialog's thread are
// left out of the payload, and edited content out of the response, so a
// long session's edits are never read back for this.
func (s *Store) CallDecisions(ctx context.Context, sessionID string, limit int) ([]Confirmation, int, error) {
	const where = `WHERE session_id = ? AND tool_call_id != '' AND status IN ('approved', 'rejected')`
	var total int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM confirmations `+where, sessionID).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, kind, tool_call_id, json_remove(payload, '$.original', '$.proposed', '$.thread'),
		status, json_remove(response, '$.content'), created_at FROM confirmations `+where+` ORDER BY created_at DESC, id DESC LIMIT ?`, sessionID, limit)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []Confirmation
	for rows.Next() {
		c := Confirmation{SessionID: sessionID}
		var payload string
		var resp sql.NullString
		var created int64
		if err := rows.Scan(&c.ID, &c.Kind, &c.ToolCallID, &payload, &c.Status, &resp, &created); err != nil {
			return nil, 0, err
		}
		c.Payload, c.Created = json.RawMessage(payload), fromMS(created)
		if resp.Valid {
			c.Response = json.RawMessage(resp.String)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, total - len(out), nil
}
