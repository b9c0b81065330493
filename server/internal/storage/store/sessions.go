package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// sessionExistsSQL checks a session inside a write (hotWrites).
const sessionExistsSQL = `SELECT 1 FROM sessions WHERE id = ?`

// SessionKind says what produced a session.
type SessionKind string

const (
	KindChat     SessionKind = "chat"
	KindSubagent SessionKind = "subagent"
	KindReviewer SessionKind = "reviewer"
)

func (k SessionKind) valid() bool {
	return k == KindChat || k == KindSubagent || k == KindReviewer
}

// SessionStatus is the lifecycle state of a session.
type SessionStatus string

const (
	SessionActive   SessionStatus = "active"
	SessionArchived SessionStatus = "archived"
)

func (st SessionStatus) valid() bool { return st == SessionActive || st == SessionArchived }

// Session is one conversation.
type Session struct {
	ID             string        `json:"id"`
	ParentID       string        `json:"parent_id,omitempty"`
	Title          string        `json:"title"`
	TitleSetByUser bool          `json:"title_set_by_user"`
	Model          string        `json:"model"`
	Status         SessionStatus `json:"status"`
	Kind           SessionKind   `json:"kind"`
	Hidden         bool          `json:"hidden"`
	Created        time.Time     `json:"created"`
	Updated        time.Time     `json:"updated"`
	MessageCount   int           `json:"message_count"`
	// ParentMessageID and ParentCallID (child sessions) say where in the
	// parent's transcript the child ran: the parent's open message and
	// the tool call that started it ("" for a reconcile step).
	ParentMessageID string `json:"parent_message_id,omitempty"`
	ParentCallID    string `json:"parent_call_id,omitempty"`
}

// NewSession describes a session to create. Kind defaults to chat.
type NewSession struct {
	Title    string
	Model    string
	ParentID string
	Kind     SessionKind
	Hidden   bool
	// ParentMessageID, ParentCallID: see Session (children only).
	ParentMessageID string
	ParentCallID    string
}

const sessionCols = `id, COALESCE(parent_id, ''), title, title_set_by_user, model, status, kind, hidden, created_at, updated_at, message_count, parent_message_id, parent_call_id`

type scanner interface{ Scan(dest ...any) error }

func scanSession(r scanner) (Session, error) {
	var s Session
	var created, updated int64
	err := r.Scan(&s.ID, &s.ParentID, &s.Title, &s.TitleSetByUser, &s.Model, &s.Status, &s.Kind, &s.Hidden, &created, &updated, &s.MessageCount, &s.ParentMessageID, &s.ParentCallID)
	s.Created, s.Updated = fromMS(created), fromMS(updated)
	return s, err
}

// CreateSession creates an empty session. A ParentID must name an existing
// session; the child is deleted with it.
func (s *Store) CreateSession(ctx context.Context, ns NewSession) (Session, error) {
	if ns.Kind == "" {
		ns.Kind = KindChat
	}
	if !ns.Kind.valid() {
		return Session{}, invalidf("session kind %q (want chat, subagent or reviewer)", ns.Kind)
	}
	id := newID()
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		if ns.ParentID == "" && (ns.ParentMessageID != "" || ns.ParentCallID != "") {
			return invalidf("a parent message or call needs a parent session")
		}
		if ns.ParentID != "" {
			if err := s.sessionExists(ctx, tx, ns.ParentID); err != nil {
				return fmt.Errorf("parent: %w", err)
			}
		}
		now := s.nowMS()
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, parent_id, title, model, kind, hidden, status, created_at, updated_at, parent_message_id, parent_call_id)
			VALUES (?, NULLIF(?, ''), ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, ns.ParentID, ns.Title, ns.Model, ns.Kind, b2i(ns.Hidden), SessionActive, now, now, ns.ParentMessageID, ns.ParentCallID)
		return err
	})
	if err != nil {
		return Session{}, err
	}
	return s.GetSession(ctx, id)
}

const getSessionQuery = `SELECT ` + sessionCols + ` FROM sessions WHERE id = ?`

// GetSession returns one session or an error wrapping ErrNotFound.
func (s *Store) GetSession(ctx context.Context, id string) (Session, error) {
	st, err := s.rq.get(ctx, getSessionQuery)
	if err != nil {
		return Session{}, err
	}
	sess, err := scanSession(st.QueryRowContext(ctx, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, notFoundf("session %q", id)
	}
	return sess, err
}

func (s *Store) sessionExists(ctx context.Context, tx *sql.Tx, id string) error {
	var one int
	err := s.txQueryRow(ctx, tx, sessionExistsSQL, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return notFoundf("session %q", id)
	}
	return err
}

// ListOptions selects a page of sessions.
type ListOptions struct {
	// Limit defaults to 50; at most 1000.
	Limit int
	// Cursor is the NextCursor of the previous page; empty for the first.
	Cursor string
	// IncludeHidden also lists hidden sessions.
	IncludeHidden bool
	// ParentID lists the children of that session instead of top-level
	// sessions.
	ParentID string
}

// SessionPage is one page of ListSessions, newest first.
type SessionPage struct {
	Sessions []Session
	// NextCursor fetches the following page; empty when this is the last.
	NextCursor string
}

// ListSessions returns sessions by most recent update first. Paging is by
// keyset, so pages stay consistent while sessions are created.
func (s *Store) ListSessions(ctx context.Context, o ListOptions) (SessionPage, error) {
	if o.Limit == 0 {
		o.Limit = 50
	}
	if o.Limit < 0 || o.Limit > 1000 {
		return SessionPage{}, invalidf("list limit %d (want 1..1000)", o.Limit)
	}
	q := `SELECT ` + sessionCols + ` FROM sessions WHERE `
	var args []any
	if o.ParentID != "" {
		q += `parent_id = ?`
		args = append(args, o.ParentID)
	} else {
		q += `parent_id IS NULL`
	}
	if !o.IncludeHidden {
		q += ` AND hidden = 0`
	}
	if o.Cursor != "" {
		ms, id, ok := strings.Cut(o.Cursor, ":")
		t, err := strconv.ParseInt(ms, 10, 64)
		if !ok || err != nil || id == "" {
			return SessionPage{}, invalidf("session cursor %q", o.Cursor)
		}
		q += ` AND (updated_at < ? OR (updated_at = ? AND id < ?))`
		args = append(args, t, t, id)
	}
	q += ` ORDER BY updated_at DESC, id DESC LIMIT ?`
	args = append(args, o.Limit+1)
	// q is one of eight fixed texts (parent, hidden, cursor), so it is
	// safe to keep prepared.
	st, err := s.rq.get(ctx, q)
	if err != nil {
		return SessionPage{}, err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return SessionPage{}, err
	}
	defer rows.Close()
	var page SessionPage
	for rows.Next() {
		sess, err := scanSession(rows)
		if err != nil {
			return SessionPage{}, err
		}
		page.Sessions = append(page.Sessions, sess)
	}
	if err := rows.Err(); err != nil {
		return SessionPage{}, err
	}
	if len(page.Sessions) > o.Limit {
		page.Sessions = page.Sessions[:o.Limit]
		last := page.Sessions[o.Limit-1]
		page.NextCursor = fmt.Sprintf("%d:%s", last.Updated.UnixMilli(), last.ID)
	}
	return page, nil
}

// RenameSession sets a title chosen by the user; from then on SetAutoTitle
// leaves the session alone.
func (s *Store) RenameSession(ctx context.Context, id, title string) error {
	title = strings.TrimSpace(title)
	if title == "" {
		return invalidf("empty session title")
	}
	return s.updateSession(ctx, id, `title = ?, title_set_by_user = 1`, title)
}

// SetAutoTitle sets a generated title unless the user has renamed the
// session; it reports whether the title was applied.
func (s *Store) SetAutoTitle(ctx context.Context, id, title string) (bool, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return false, invalidf("empty session title")
	}
	var applied bool
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET title = ?, updated_at = ? WHERE id = ? AND title_set_by_user = 0`, title, s.nowMS(), id)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		applied = n == 1
		if !applied {
			return s.sessionExists(ctx, tx, id)
		}
		return nil
	})
	return applied, err
}

// SetSessionModel records the model the session now talks to.
func (s *Store) SetSessionModel(ctx context.Context, id, model string) error {
	return s.updateSession(ctx, id, `model = ?`, model)
}

// SetSessionStatus archives or reactivates a session.
func (s *Store) SetSessionStatus(ctx context.Context, id string, st SessionStatus) error {
	if !st.valid() {
		return invalidf("session status %q (want active or archived)", st)
	}
	return s.updateSession(ctx, id, `status = ?`, st)
}

// SetSessionHidden hides or shows a session in default listings.
func (s *Store) SetSessionHidden(ctx context.Context, id string, hidden bool) error {
	return s.updateSession(ctx, id, `hidden = ?`, b2i(hidden))
}

func (s *Store) updateSession(ctx context.Context, id, set string, arg any) error {
	return s.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET `+set+`, updated_at = ? WHERE id = ?`, arg, s.nowMS(), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFoundf("session %q", id)
		}
		return nil
	})
}

// DeleteSession removes a session with its messages, LLM track, state,
// confirmations and child sessions.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	s.tracks.rewrote() // the cascade drops its model track
	defer s.tracks.rewrote()
	return s.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFoundf("session %q", id)
		}
		return nil
	})
}

// SubagentRuns returns the sub-agent children (kind subagent) that ran
// while one of the parent's messages in messageIDs was open, oldest first:
// what a reopened session shows as sub-agent groups. Reviewers are not
// listed: they are checks, not agents of the conversation.
func (s *Store) SubagentRuns(ctx context.Context, parentID string, messageIDs []string) ([]Session, error) {
	if len(messageIDs) == 0 {
		return nil, nil
	}
	if len(messageIDs) > 1000 {
		return nil, invalidf("%d message ids (at most 1000)", len(messageIDs))
	}
	q := `SELECT ` + sessionCols + ` FROM sessions WHERE parent_id = ? AND kind = 'subagent' AND parent_message_id IN (?` +
		strings.Repeat(", ?", len(messageIDs)-1) + `) ORDER BY created_at, id`
	args := make([]any, 0, len(messageIDs)+1)
	args = append(args, parentID)
	for _, id := range messageIDs {
		args = append(args, id)
	}
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		sess, err := scanSession(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sess)
	}
	return out, rows.Err()
}
