package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/govibe/govibe/server/internal/llm"
)

// TrackTokens is the token estimate of the session's whole model track.
// Each message is counted once with count and its figure stored with it;
// later calls count only messages added since, so the cost of opening a
// session does not grow with its history. count must be deterministic
// (the same message always gives the same figure).
func (s *Store) TrackTokens(ctx context.Context, sessionID string, count func(llm.Message) int) (int, error) {
	type fresh struct {
		pos    int
		raw    string
		tokens int
	}
	var todo []fresh
	var known int64
	err := func() error {
		tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(tokens), 0) FROM llm_messages WHERE session_id = ? AND tokens IS NOT NULL`, sessionID).Scan(&known); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT position, message FROM llm_messages WHERE session_id = ? AND tokens IS NULL ORDER BY position`, sessionID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var pos int
			var raw string
			if err := rows.Scan(&pos, &raw); err != nil {
				return err
			}
			var m llm.Message
			if err := json.Unmarshal([]byte(raw), &m); err != nil {
				return fmt.Errorf("stored llm message %d of session %s: %w", pos, sessionID, err)
			}
			todo = append(todo, fresh{pos: pos, raw: raw, tokens: count(m)})
		}
		return rows.Err()
	}()
	if err != nil {
		return 0, err
	}
	total := int(known)
	for _, f := range todo {
		total += f.tokens
	}
	if len(todo) == 0 {
		return total, nil
	}
	// Remember the new figures. A message replaced meanwhile (compaction
	// rewrites ranges) no longer matches position and content, so it keeps
	// its empty slot and is counted next time.
	err = s.writeTx(ctx, func(tx *sql.Tx) error {
		for _, f := range todo {
			if _, err := tx.ExecContext(ctx, `UPDATE llm_messages SET tokens = ? WHERE session_id = ? AND position = ? AND tokens IS NULL AND message = ?`, f.tokens, sessionID, f.pos, f.raw); err != nil {
				return err
			}
		}
		return nil
	})
	return total, err
}
