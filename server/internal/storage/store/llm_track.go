package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// A track append's statements (hotWrites).
const (
	insertLLMSQL = `INSERT INTO llm_messages (session_id, position, message, source_message_id) VALUES (?, ?, ?, ?)`
	llmLenSQL    = `SELECT COALESCE(MAX(position) + 1, 0) FROM llm_messages WHERE session_id = ?`
)

// LLMEntry is one position of a session's model-visible conversation.
type LLMEntry struct {
	Position int         `json:"position"`
	Message  llm.Message `json:"message"`
	// SourceMessageID is the stored message this entry came from; empty
	// for synthesised entries such as compaction summaries.
	SourceMessageID string `json:"source_message_id,omitempty"`
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Only plain structs of strings and numbers reach here.
		panic(err)
	}
	return b
}

func validateLLM(msgs []llm.Message) error {
	for i, m := range msgs {
		switch m.Role {
		case llm.RoleSystem, llm.RoleUser, llm.RoleAssistant, llm.RoleTool:
		default:
			return invalidf("llm message %d has role %q", i, m.Role)
		}
	}
	return nil
}

func (s *Store) llmLen(ctx context.Context, tx *sql.Tx, sessionID string) (int, error) {
	var n int
	err := s.txQueryRow(ctx, tx, llmLenSQL, sessionID).Scan(&n)
	return n, err
}

// appendLLM writes msgs after the last position and returns the first
// position used.
func (s *Store) appendLLM(ctx context.Context, tx *sql.Tx, sessionID, source string, msgs []llm.Message) (int, error) {
	if err := validateLLM(msgs); err != nil {
		return 0, err
	}
	if err := s.sessionExists(ctx, tx, sessionID); err != nil {
		return 0, err
	}
	first, err := s.llmLen(ctx, tx, sessionID)
	if err != nil {
		return 0, err
	}
	for i, m := range msgs {
		if err := s.insertLLM(ctx, tx, sessionID, first+i, m, source); err != nil {
			return 0, err
		}
	}
	return first, nil
}

func (s *Store) insertLLM(ctx context.Context, tx *sql.Tx, sessionID string, pos int, m llm.Message, source string) error {
	_, err := s.txExec(ctx, tx, insertLLMSQL,
		sessionID, pos, string(mustJSON(m)), source)
	return err
}

// AppendLLMMessages appends msgs to the session's LLM track and returns the
// position of the first. sourceMessageID may be empty.
func (s *Store) AppendLLMMessages(ctx context.Context, sessionID, sourceMessageID string, msgs ...llm.Message) (int, error) {
	var first int
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		var err error
		first, err = s.appendLLM(ctx, tx, sessionID, sourceMessageID, msgs)
		return err
	})
	return first, err
}

// LLMMessages returns the session's model-visible conversation in order.
func (s *Store) LLMMessages(ctx context.Context, sessionID string) ([]llm.Message, error) {
	entries, err := s.LLMEntries(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	out := make([]llm.Message, len(entries))
	for i, e := range entries {
		out[i] = e.Message
	}
	return out, nil
}

// LLMEntries is LLMMessages with positions and sources.
func (s *Store) LLMEntries(ctx context.Context, sessionID string) ([]LLMEntry, error) {
	epoch := s.tracks.rewrites.Load() // before the read: see trackCache
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return s.cachedEntries(ctx, tx, sessionID, epoch)
}

// LLMLast returns the length of the session's model track and its last
// message (zero when the track is empty), reading one row: a caller that
// only checks how the track ends does not decode the whole track, which
// a long session's large tool results make costly on every turn.
func (s *Store) LLMLast(ctx context.Context, sessionID string) (int, llm.Message, error) {
	var (
		pos int
		raw string
		m   llm.Message
	)
	err := s.r.QueryRowContext(ctx, `SELECT position, message FROM llm_messages WHERE session_id = ? ORDER BY position DESC LIMIT 1`, sessionID).Scan(&pos, &raw)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := s.GetSession(ctx, sessionID); err != nil {
			return 0, m, err
		}
		return 0, m, nil
	case err != nil:
		return 0, m, err
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return 0, m, err
	}
	// Positions are contiguous from 0 (ReplaceLLMMessages renumbers).
	return pos + 1, m, nil
}

func llmEntries(ctx context.Context, tx *sql.Tx, sessionID string) ([]LLMEntry, error) {
	out, _, err := llmEntriesRaw(ctx, tx, sessionID)
	return out, err
}

// llmEntriesRaw is llmEntries with each entry's stored JSON.
func llmEntriesRaw(ctx context.Context, tx *sql.Tx, sessionID string) ([]LLMEntry, []string, error) {
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, sessionID).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return nil, nil, notFoundf("session %q", sessionID)
	} else if err != nil {
		return nil, nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT position, message, source_message_id FROM llm_messages WHERE session_id = ? ORDER BY position`, sessionID)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	out, raws := []LLMEntry{}, []string{}
	for rows.Next() {
		var e LLMEntry
		var raw string
		if err := rows.Scan(&e.Position, &raw, &e.SourceMessageID); err != nil {
			return nil, nil, err
		}
		if err := json.Unmarshal([]byte(raw), &e.Message); err != nil {
			return nil, nil, err
		}
		out, raws = append(out, e), append(raws, raw)
	}
	return out, raws, rows.Err()
}

// ReplaceLLMMessages atomically replaces positions [from, to) with msgs
// (compaction, scoped summaries) and renumbers what follows, so positions
// stay contiguous from 0. A concurrent reader sees the old or the new
// track, never a mix. The replacements have no source message.
func (s *Store) ReplaceLLMMessages(ctx context.Context, sessionID string, from, to int, msgs []llm.Message) error {
	if err := validateLLM(msgs); err != nil {
		return err
	}
	s.tracks.rewrote()
	defer s.tracks.rewrote()
	return s.writeTx(ctx, func(tx *sql.Tx) error {
		if err := s.sessionExists(ctx, tx, sessionID); err != nil {
			return err
		}
		n, err := s.llmLen(ctx, tx, sessionID)
		if err != nil {
			return err
		}
		if from < 0 || from > to || to > n {
			return invalidf("llm range [%d, %d) outside track of length %d", from, to, n)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM llm_messages WHERE session_id = ? AND position >= ? AND position < ?`, sessionID, from, to); err != nil {
			return err
		}
		if delta := len(msgs) - (to - from); delta != 0 {
			// Two passes through negative positions: a direct shift would
			// collide with rows not yet moved on the primary key.
			if _, err := tx.ExecContext(ctx, `UPDATE llm_messages SET position = -(position + ?) - 1 WHERE session_id = ? AND position >= ?`, delta, sessionID, to); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE llm_messages SET position = -position - 1 WHERE session_id = ? AND position < 0`, sessionID); err != nil {
				return err
			}
		}
		for i, m := range msgs {
			if err := s.insertLLM(ctx, tx, sessionID, from+i, m, ""); err != nil {
				return err
			}
		}
		return nil
	})
}

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
