package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
)

// setStateSQL writes one key (hotWrites).
const setStateSQL = `INSERT INTO session_state (session_id, key, value, updated_at) VALUES (?, ?, ?, ?)
	ON CONFLICT (session_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`

// SetState stores value (JSON) under key for the session. The store gives
// keys no meaning: package sessionstate declares them, with their types.
func (s *Store) SetState(ctx context.Context, sessionID, key string, value json.RawMessage) error {
	return s.setState(ctx, s.writeTx, sessionID, key, value)
}

func (s *Store) setState(ctx context.Context, writeTx func(context.Context, func(*sql.Tx) error) error, sessionID, key string, value json.RawMessage) error {
	if key == "" {
		return invalidf("empty state key")
	}
	if !json.Valid(value) {
		return invalidf("state %q is not valid JSON", key)
	}
	return writeTx(ctx, func(tx *sql.Tx) error {
		if err := s.sessionExists(ctx, tx, sessionID); err != nil {
			return err
		}
		_, err := s.txExec(ctx, tx, setStateSQL, sessionID, key, string(value), s.nowMS())
		return err
	})
}

// SetStateRelaxed is SetState committed without waiting for the disk
// (see writeTxRelaxed): for bookkeeping written several times a turn,
// such as usage accounting, where a power cut may cost the latest update.
func (s *Store) SetStateRelaxed(ctx context.Context, sessionID, key string, value json.RawMessage) error {
	return s.setState(ctx, s.writeTxRelaxed, sessionID, key, value)
}

// GetState returns the value under key and whether it exists.
func (s *Store) GetState(ctx context.Context, sessionID, key string) (json.RawMessage, bool, error) {
	var v string
	// Read before every model request (usage accounting): prepared once.
	st, err := s.rq.get(ctx, `SELECT value FROM session_state WHERE session_id = ? AND key = ?`)
	if err != nil {
		return nil, false, err
	}
	err = st.QueryRowContext(ctx, sessionID, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return json.RawMessage(v), true, nil
}

// maxStateBatch bounds the ids of one StateOfSessions query; a longer
// list is read in several (a session list page holds at most 1,000).
const maxStateBatch = 500

// StateOfSessions returns the value under key of each session in ids that
// has one, in one query per maxStateBatch ids: what a session list needs
// of every listed session (its cost), where one GetState per session was
// 1,000 queries for a full page.
func (s *Store) StateOfSessions(ctx context.Context, key string, ids []string) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(ids))
	for start := 0; start < len(ids); start += maxStateBatch {
		batch := ids[start:min(start+maxStateBatch, len(ids))]
		args := make([]any, 0, len(batch)+1)
		args = append(args, key)
		for _, id := range batch {
			args = append(args, id)
		}
		rows, err := s.r.QueryContext(ctx, `SELECT session_id, value FROM session_state WHERE key = ? AND session_id IN (?`+
			strings.Repeat(`, ?`, len(batch)-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id, v string
			if err := rows.Scan(&id, &v); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = json.RawMessage(v)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
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
