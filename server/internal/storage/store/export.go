package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// ExportFormat identifies GoVibe session documents.
const ExportFormat = "govibe.session"

// ExportVersion is the document version Export writes and Import reads.
const ExportVersion = 1

// Document is a self-contained session: everything needed to reproduce it
// in another database.
type Document struct {
	Format        string                     `json:"format"`
	Version       int                        `json:"version"`
	Session       Session                    `json:"session"`
	Messages      []Message                  `json:"messages"`
	LLM           []LLMEntry                 `json:"llm_messages"`
	State         map[string]json.RawMessage `json:"state"`
	Confirmations []Confirmation             `json:"confirmations"`
}

// Export returns the session as a JSON Document, read from one snapshot.
// Child sessions are not included; export them separately.
func (s *Store) Export(ctx context.Context, sessionID string) ([]byte, error) {
	doc, err := s.exportDoc(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return json.MarshalIndent(doc, "", "  ")
}

func (s *Store) exportDoc(ctx context.Context, sessionID string) (Document, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Document{}, err
	}
	defer tx.Rollback()
	doc := Document{Format: ExportFormat, Version: ExportVersion}
	doc.Session, err = scanSession(tx.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = ?`, sessionID))
	if errors.Is(err, sql.ErrNoRows) {
		return Document{}, notFoundf("session %q", sessionID)
	}
	if err != nil {
		return Document{}, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+messageCols+` FROM messages WHERE session_id = ? ORDER BY seq`, sessionID)
	if err != nil {
		return Document{}, err
	}
	if doc.Messages, err = collectMessages(rows); err != nil {
		return Document{}, err
	}
	if len(doc.Messages) > 0 {
		if err := loadParts(ctx, tx, sessionID, doc.Messages); err != nil {
			return Document{}, err
		}
	} else {
		doc.Messages = []Message{}
	}
	if doc.LLM, err = llmEntries(ctx, tx, sessionID); err != nil {
		return Document{}, err
	}
	rows, err = tx.QueryContext(ctx, `SELECT key, value FROM session_state WHERE session_id = ? ORDER BY key`, sessionID)
	if err != nil {
		return Document{}, err
	}
	if doc.State, err = collectState(rows); err != nil {
		return Document{}, err
	}
	doc.Confirmations, err = s.confirmations(ctx, tx, `WHERE session_id = ?`, sessionID)
	return doc, err
}

// Import creates a new session reproducing an exported Document: same
// title, flags, messages (content, order, seq, times), LLM track, state and
// confirmations, under new ids with internal references remapped. The
// parent link is kept only if that session exists here. The whole import
// is one transaction: a bad document writes nothing.
func (s *Store) Import(ctx context.Context, data []byte) (Session, error) {
	var doc Document
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return Session{}, invalidf("session document: %v", err)
	}
	if err := doc.validate(); err != nil {
		return Session{}, err
	}
	newSID := newID()
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		return s.importDoc(ctx, tx, newSID, doc)
	})
	if err != nil {
		return Session{}, err
	}
	return s.GetSession(ctx, newSID)
}

func (d *Document) validate() error {
	if d.Format != ExportFormat {
		return invalidf("document format %q (want %q)", d.Format, ExportFormat)
	}
	if d.Version != ExportVersion {
		return invalidf("document version %d (this GoVibe reads %d)", d.Version, ExportVersion)
	}
	ss := d.Session
	if !ss.Kind.valid() || !ss.Status.valid() {
		return invalidf("session kind %q / status %q", ss.Kind, ss.Status)
	}
	prev := int64(0)
	ids := map[string]bool{}
	for i, m := range d.Messages {
		if m.Seq <= prev {
			return invalidf("message %d: seq %d does not increase", i, m.Seq)
		}
		prev = m.Seq
		if m.ID == "" || ids[m.ID] {
			return invalidf("message %d: missing or duplicate id %q", i, m.ID)
		}
		ids[m.ID] = true
		nm := NewMessage{Role: m.Role, Status: m.Status, Parts: m.Parts}
		if m.Status == "" {
			return invalidf("message %d: missing status", i)
		}
		if err := nm.validate(); err != nil {
			return fmt.Errorf("message %d: %w", i, err)
		}
	}
	msgs := make([]llm.Message, len(d.LLM))
	for i, e := range d.LLM {
		if e.Position != i {
			return invalidf("llm entry %d has position %d; positions must run 0, 1, 2, ...", i, e.Position)
		}
		msgs[i] = e.Message
	}
	if err := validateLLM(msgs); err != nil {
		return err
	}
	for k, v := range d.State {
		if k == "" || !json.Valid(v) {
			return invalidf("state key %q: empty key or invalid JSON", k)
		}
	}
	for i, c := range d.Confirmations {
		switch c.Status {
		case ConfirmPending, ConfirmApproved, ConfirmRejected, ConfirmCancelled:
		default:
			return invalidf("confirmation %d status %q", i, c.Status)
		}
		if c.Kind == "" || !json.Valid(c.Payload) {
			return invalidf("confirmation %d: empty kind or invalid payload", i)
		}
	}
	return nil
}

func (s *Store) importDoc(ctx context.Context, tx *sql.Tx, sid string, doc Document) error {
	ss := doc.Session
	var parent any
	if ss.ParentID != "" && s.sessionExists(ctx, tx, ss.ParentID) == nil {
		parent = ss.ParentID
	}
	lastSeq := int64(0)
	if n := len(doc.Messages); n > 0 {
		lastSeq = doc.Messages[n-1].Seq
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, parent_id, title, title_set_by_user, model, status, kind, hidden, created_at, updated_at, message_count, last_seq)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		sid, parent, ss.Title, b2i(ss.TitleSetByUser), ss.Model, ss.Status, ss.Kind, b2i(ss.Hidden),
		ss.Created.UnixMilli(), ss.Updated.UnixMilli(), len(doc.Messages), lastSeq)
	if err != nil {
		return err
	}
	remap := make(map[string]string, len(doc.Messages))
	for _, m := range doc.Messages {
		remap[m.ID] = newID()
	}
	mapped := func(id string) string {
		if n, ok := remap[id]; ok {
			return n
		}
		return id
	}
	for _, m := range doc.Messages {
		var usage any
		if m.Usage != nil {
			usage = string(mustJSON(m.Usage))
		}
		id := remap[m.ID]
		_, err := tx.ExecContext(ctx, `INSERT INTO messages (id, session_id, seq, reply_to, role, sub_agent_tag, hidden_from_llm, btw_branch, origin, status, usage, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, sid, m.Seq, mapped(m.ReplyTo), m.Role, m.SubAgentTag, b2i(m.HiddenFromLLM), m.BTWBranch, m.Origin, m.Status, usage,
			m.Created.UnixMilli(), m.Updated.UnixMilli())
		if err != nil {
			return err
		}
		for i, p := range m.Parts {
			if err := s.upsertPart(ctx, tx, id, i, p); err != nil {
				return err
			}
		}
	}
	for _, e := range doc.LLM {
		if err := s.insertLLM(ctx, tx, sid, e.Position, e.Message, mapped(e.SourceMessageID)); err != nil {
			return err
		}
	}
	now := s.nowMS()
	for k, v := range doc.State {
		if _, err := tx.ExecContext(ctx, `INSERT INTO session_state (session_id, key, value, updated_at) VALUES (?, ?, ?, ?)`, sid, k, string(v), now); err != nil {
			return err
		}
	}
	for _, c := range doc.Confirmations {
		var resp any
		if c.Response != nil {
			resp = string(c.Response)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO confirmations (id, session_id, message_id, tool_call_id, kind, payload, status, response, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, newID(), sid, mapped(c.MessageID), c.ToolCallID, c.Kind, string(c.Payload), c.Status, resp,
			c.Created.UnixMilli(), c.Updated.UnixMilli())
		if err != nil {
			return err
		}
	}
	return nil
}
