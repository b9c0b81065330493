package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// upsertPartSQL writes one part (hotWrites).
const upsertPartSQL = `INSERT INTO message_parts (message_id, idx, kind, text, data) VALUES (?, ?, ?, ?, ?)
	ON CONFLICT (message_id, idx) DO UPDATE SET kind = excluded.kind, text = excluded.text, data = excluded.data`

// Role of a stored message. Event messages record things that happened
// (compaction, mode switches) rather than things someone said.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
	RoleEvent     Role = "event"
)

func (r Role) valid() bool {
	return r == RoleUser || r == RoleAssistant || r == RoleTool || r == RoleEvent
}

// Origins of user-role messages the engine wrote. The model reads them as
// it reads the person's; the UI shows them as the engine's, never as
// something the user typed.
const (
	// OriginUser: the person typed it.
	OriginUser = ""
	// OriginPlanStep: a todo executor's or evaluator's prompt.
	OriginPlanStep = "plan-step"
	// OriginPlanResume: an interrupted plan agent is told to continue.
	OriginPlanResume = "plan-resume"
	// OriginPlanFinal: the scheduler's closing prompt after every item.
	OriginPlanFinal = "plan-final"
	// OriginControl: a button spoke (Run plan, the todo panel's Resume,
	// reconcile's Approve and Resume).
	OriginControl = "control"
	// OriginSubagentTask: a sub-agent's task, first message of its child
	// session.
	OriginSubagentTask = "subagent-task"
)

func validOrigin(o string) bool {
	switch o {
	case OriginUser, OriginPlanStep, OriginPlanResume, OriginPlanFinal, OriginControl, OriginSubagentTask:
		return true
	}
	return false
}

// MessageStatus says whether a message is complete. A pending message is
// one whose writer has not finalized it, possibly because the process died.
type MessageStatus string

const (
	StatusPending   MessageStatus = "pending"
	StatusDone      MessageStatus = "done"
	StatusError     MessageStatus = "error"
	StatusCancelled MessageStatus = "cancelled"
)

func (st MessageStatus) valid() bool {
	return st == StatusPending || st == StatusDone || st == StatusError || st == StatusCancelled
}

// Message is one entry of the user-visible conversation.
type Message struct {
	ID        string `json:"id"`
	SessionID string `json:"session_id"`
	// Seq orders messages within their session: strictly increasing,
	// assigned at insert, never reused.
	Seq           int64  `json:"seq"`
	ReplyTo       string `json:"reply_to,omitempty"`
	Role          Role   `json:"role"`
	SubAgentTag   string `json:"sub_agent_tag,omitempty"`
	HiddenFromLLM bool   `json:"hidden_from_llm,omitempty"`
	BTWBranch     string `json:"btw_branch,omitempty"`
	// Origin is who wrote a user-role message: "" the person, otherwise
	// the engine (OriginPlanStep, OriginPlanFinal...).
	Origin  string        `json:"origin,omitempty"`
	Status  MessageStatus `json:"status"`
	Usage   *llm.Usage    `json:"usage,omitempty"`
	Parts   []Part        `json:"parts"`
	Created time.Time     `json:"created"`
	Updated time.Time     `json:"updated"`
}

// Text concatenates the message's text parts.
func (m Message) Text() string {
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Kind == PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// NewMessage describes a message to append. Status defaults to done.
type NewMessage struct {
	Role          Role
	ReplyTo       string
	SubAgentTag   string
	HiddenFromLLM bool
	BTWBranch     string
	Origin        string
	Status        MessageStatus
	Usage         *llm.Usage
	Parts         []Part
}

func (nm *NewMessage) validate() error {
	if nm.Status == "" {
		nm.Status = StatusDone
	}
	if !nm.Role.valid() {
		return invalidf("message role %q (want user, assistant, tool or event)", nm.Role)
	}
	if !validOrigin(nm.Origin) {
		return invalidf("message origin %q (want empty, plan-step, plan-resume, plan-final, control or subagent-task)", nm.Origin)
	}
	if nm.Origin != OriginUser && nm.Role != RoleUser {
		return invalidf("message origin %q on a %s message (only user messages have an origin)", nm.Origin, nm.Role)
	}
	if !nm.Status.valid() {
		return invalidf("message status %q (want pending, done, error or cancelled)", nm.Status)
	}
	for i, p := range nm.Parts {
		if err := p.Validate(); err != nil {
			return invalidf("part %d: %v", i, err)
		}
	}
	return nil
}

// AppendMessage commits one complete message (events, tool messages,
// imported history). Turns use BeginTurn instead.
func (s *Store) AppendMessage(ctx context.Context, sessionID string, nm NewMessage) (Message, error) {
	if err := nm.validate(); err != nil {
		return Message{}, err
	}
	var m Message
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		var err error
		m, err = s.insertMessage(ctx, tx, sessionID, nm, 0)
		return err
	})
	return m, err
}

// insertMessage allocates the next seq (or uses seq when > 0, for imports)
// and writes the message with its parts. nm must be validated.
func (s *Store) insertMessage(ctx context.Context, tx *sql.Tx, sessionID string, nm NewMessage, seq int64) (Message, error) {
	now := s.nowMS()
	var err error
	if seq > 0 {
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET last_seq = max(last_seq, ?), message_count = message_count + 1, updated_at = ? WHERE id = ?`, seq, now, sessionID)
	} else {
		err = tx.QueryRowContext(ctx, `UPDATE sessions SET last_seq = last_seq + 1, message_count = message_count + 1, updated_at = ? WHERE id = ? RETURNING last_seq`, now, sessionID).Scan(&seq)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return Message{}, notFoundf("session %q", sessionID)
	}
	if err != nil {
		return Message{}, err
	}
	var usage any
	if nm.Usage != nil {
		b, _ := json.Marshal(nm.Usage)
		usage = string(b)
	}
	m := Message{
		ID: newID(), SessionID: sessionID, Seq: seq, ReplyTo: nm.ReplyTo, Role: nm.Role,
		SubAgentTag: nm.SubAgentTag, HiddenFromLLM: nm.HiddenFromLLM, BTWBranch: nm.BTWBranch, Origin: nm.Origin,
		Status: nm.Status, Usage: nm.Usage, Parts: nm.Parts, Created: fromMS(now), Updated: fromMS(now),
	}
	if m.Parts == nil {
		m.Parts = []Part{}
	}
	// A pending message is a run this process owns until it ends.
	owner := ""
	if m.Status == StatusPending {
		owner = s.lease.id
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO messages (id, session_id, seq, reply_to, role, sub_agent_tag, hidden_from_llm, btw_branch, origin, status, usage, created_at, updated_at, owner)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.ID, sessionID, seq, m.ReplyTo, m.Role, m.SubAgentTag, b2i(m.HiddenFromLLM), m.BTWBranch, m.Origin, m.Status, usage, now, now, owner)
	if err != nil {
		return Message{}, err
	}
	for i, p := range m.Parts {
		if err := s.upsertPart(ctx, tx, m.ID, i, p); err != nil {
			return Message{}, err
		}
	}
	return m, nil
}

func (s *Store) upsertPart(ctx context.Context, tx *sql.Tx, messageID string, idx int, p Part) error {
	text, data, err := p.encode()
	if err != nil {
		return err
	}
	_, err = s.txExec(ctx, tx, upsertPartSQL, messageID, idx, p.Kind, text, data)
	return err
}

const messageCols = `id, session_id, seq, reply_to, role, sub_agent_tag, hidden_from_llm, btw_branch, origin, status, usage, created_at, updated_at`

func scanMessage(r scanner) (Message, error) {
	var m Message
	var usage sql.NullString
	var created, updated int64
	err := r.Scan(&m.ID, &m.SessionID, &m.Seq, &m.ReplyTo, &m.Role, &m.SubAgentTag, &m.HiddenFromLLM, &m.BTWBranch, &m.Origin, &m.Status, &usage, &created, &updated)
	if err != nil {
		return m, err
	}
	if usage.Valid {
		m.Usage = &llm.Usage{}
		if err := json.Unmarshal([]byte(usage.String), m.Usage); err != nil {
			return m, err
		}
	}
	m.Created, m.Updated = fromMS(created), fromMS(updated)
	m.Parts = []Part{}
	return m, nil
}

// MessagePage is one page of a session's messages in ascending seq order.
type MessagePage struct {
	Messages []Message
	// Total is the number of messages in the whole session.
	Total int
	// HasMore says older messages exist; pass NextBefore to fetch them.
	HasMore    bool
	NextBefore int64
}

// LoadMessages returns up to limit messages with seq < beforeSeq (all when
// beforeSeq is 0), taking the newest ones: pass 0 to open a session at its
// end, then NextBefore to scroll back.
func (s *Store) LoadMessages(ctx context.Context, sessionID string, beforeSeq int64, limit int) (MessagePage, error) {
	if limit <= 0 || limit > 10000 {
		return MessagePage{}, invalidf("message page limit %d (want 1..10000)", limit)
	}
	if beforeSeq < 0 {
		return MessagePage{}, invalidf("beforeSeq %d is negative", beforeSeq)
	}
	if beforeSeq == 0 {
		beforeSeq = math.MaxInt64
	}
	// One read transaction: messages and parts come from the same snapshot
	// even while a StreamWriter is flushing.
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return MessagePage{}, err
	}
	defer tx.Rollback()
	var page MessagePage
	err = tx.QueryRowContext(ctx, `SELECT message_count FROM sessions WHERE id = ?`, sessionID).Scan(&page.Total)
	if errors.Is(err, sql.ErrNoRows) {
		return MessagePage{}, notFoundf("session %q", sessionID)
	}
	if err != nil {
		return MessagePage{}, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+messageCols+` FROM messages WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`, sessionID, beforeSeq, limit+1)
	if err != nil {
		return MessagePage{}, err
	}
	msgs, err := collectMessages(rows)
	if err != nil {
		return MessagePage{}, err
	}
	if len(msgs) > limit {
		msgs = msgs[:limit]
		page.HasMore = true
	}
	for i, j := 0, len(msgs)-1; i < j; i, j = i+1, j-1 {
		msgs[i], msgs[j] = msgs[j], msgs[i]
	}
	if len(msgs) > 0 {
		page.NextBefore = msgs[0].Seq
		if err := loadParts(ctx, tx, sessionID, msgs); err != nil {
			return MessagePage{}, err
		}
	}
	page.Messages = msgs
	return page, nil
}

func collectMessages(rows *sql.Rows) ([]Message, error) {
	defer rows.Close()
	var out []Message
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// loadParts fills the parts of msgs, which must be in ascending seq order
// and contiguous in seq range.
func loadParts(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, sessionID string, msgs []Message) error {
	byID := make(map[string]*Message, len(msgs))
	for i := range msgs {
		byID[msgs[i].ID] = &msgs[i]
	}
	rows, err := q.QueryContext(ctx, `SELECT p.message_id, p.kind, p.text, p.data FROM messages m JOIN message_parts p ON p.message_id = m.id
		WHERE m.session_id = ? AND m.seq BETWEEN ? AND ? ORDER BY m.seq, p.idx`, sessionID, msgs[0].Seq, msgs[len(msgs)-1].Seq)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, text string
		var kind PartKind
		var data sql.NullString
		if err := rows.Scan(&id, &kind, &text, &data); err != nil {
			return err
		}
		m := byID[id]
		if m == nil {
			continue // committed after our message query in a concurrent transaction
		}
		p, err := decodePart(kind, text, []byte(data.String))
		if err != nil {
			return err
		}
		m.Parts = append(m.Parts, p)
	}
	return rows.Err()
}

// GetMessage returns one message with its parts.
func (s *Store) GetMessage(ctx context.Context, id string) (Message, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Message{}, err
	}
	defer tx.Rollback()
	m, err := scanMessage(tx.QueryRowContext(ctx, `SELECT `+messageCols+` FROM messages WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Message{}, notFoundf("message %q", id)
	}
	if err != nil {
		return Message{}, err
	}
	msgs := []Message{m}
	if err := loadParts(ctx, tx, m.SessionID, msgs); err != nil {
		return Message{}, err
	}
	return msgs[0], nil
}
