package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
)

// SetState stores value (JSON) under key for the session. The store gives
// keys no meaning: package sessionstate declares them, with their types.
func (s *Store) SetState(ctx context.Context, sessionID, key string, value json.RawMessage) error {
	if key == "" {
		return invalidf("empty state key")
	}
	if !json.Valid(value) {
		return invalidf("state %q is not valid JSON", key)
	}
	return s.writeTx(ctx, func(tx *sql.Tx) error {
		if err := sessionExists(ctx, tx, sessionID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO session_state (session_id, key, value, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (session_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
			sessionID, key, string(value), s.nowMS())
		return err
	})
}

// GetState returns the value under key and whether it exists.
func (s *Store) GetState(ctx context.Context, sessionID, key string) (json.RawMessage, bool, error) {
	var v string
	err := s.r.QueryRowContext(ctx, `SELECT value FROM session_state WHERE session_id = ? AND key = ?`, sessionID, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return json.RawMessage(v), true, nil
}

// DeleteState removes key; removing a missing key is not an error.
func (s *Store) DeleteState(ctx context.Context, sessionID, key string) error {
	return s.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM session_state WHERE session_id = ? AND key = ?`, sessionID, key)
		return err
	})
}

// AllState returns every key of the session.
func (s *Store) AllState(ctx context.Context, sessionID string) (map[string]json.RawMessage, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT key, value FROM session_state WHERE session_id = ? ORDER BY key`, sessionID)
	if err != nil {
		return nil, err
	}
	return collectState(rows)
}

func collectState(rows *sql.Rows) (map[string]json.RawMessage, error) {
	defer rows.Close()
	out := map[string]json.RawMessage{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = json.RawMessage(v)
	}
	return out, rows.Err()
}
