package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// TurnOptions refines BeginTurn.
type TurnOptions struct {
	// ReplyTo is what the user message answers; empty means the session's
	// latest message. The assistant message always replies to the user's.
	ReplyTo     string
	SubAgentTag string
	// BTWBranch marks a side conversation's messages (BranchBTW).
	BTWBranch     string
	HiddenFromLLM bool
	// Origin marks a user message the engine wrote (Message.Origin).
	Origin string
	// LLM is appended to the LLM track in the same transaction, with the
	// user message as its source (typically the user's llm.Message).
	LLM []llm.Message
}

// TurnIDs names the two records BeginTurn created.
type TurnIDs struct {
	UserMessageID      string
	UserSeq            int64
	AssistantMessageID string
	AssistantSeq       int64
}

// BeginTurn commits the user's message and a pending assistant message in
// one transaction, before the model is called, and returns a writer for
// the assistant message. After a crash the session shows the question and
// an unfinished (pending) answer, never an answer without its question.
// It returns ErrRunningElsewhere, writing nothing, while another live
// process runs a turn of the session.
func (s *Store) BeginTurn(ctx context.Context, sessionID, userText string, o TurnOptions) (TurnIDs, *StreamWriter, error) {
	if strings.TrimSpace(userText) == "" {
		return TurnIDs{}, nil, invalidf("empty user message")
	}
	user := NewMessage{Role: RoleUser, ReplyTo: o.ReplyTo, SubAgentTag: o.SubAgentTag, BTWBranch: o.BTWBranch,
		HiddenFromLLM: o.HiddenFromLLM, Origin: o.Origin, Status: StatusDone, Parts: []Part{{Kind: PartText, Text: userText}}}
	var ids TurnIDs
	err := s.writeTx(ctx, func(tx *sql.Tx) error {
		if err := s.runningElsewhere(ctx, tx, sessionID); err != nil {
			return err
		}
		if user.ReplyTo == "" {
			err := tx.QueryRowContext(ctx, `SELECT id FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT 1`, sessionID).Scan(&user.ReplyTo)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		um, err := s.insertMessage(ctx, tx, sessionID, user, 0)
		if err != nil {
			return err
		}
		am, err := s.insertMessage(ctx, tx, sessionID, NewMessage{Role: RoleAssistant, ReplyTo: um.ID, SubAgentTag: o.SubAgentTag,
			BTWBranch: o.BTWBranch, HiddenFromLLM: o.HiddenFromLLM, Status: StatusPending}, 0)
		if err != nil {
			return err
		}
		ids = TurnIDs{UserMessageID: um.ID, UserSeq: um.Seq, AssistantMessageID: am.ID, AssistantSeq: am.Seq}
		if len(o.LLM) > 0 {
			_, err = s.appendLLM(ctx, tx, sessionID, um.ID, o.LLM)
		}
		return err
	})
	if err != nil {
		return TurnIDs{}, nil, err
	}
	return ids, newStreamWriter(s, sessionID, ids.AssistantMessageID, nil), nil
}

// ResumeWriter reopens a pending message for writing, e.g. after a reload
// during which a tool call waited for confirmation.
func (s *Store) ResumeWriter(ctx context.Context, messageID string) (*StreamWriter, error) {
	m, err := s.GetMessage(ctx, messageID)
	if err != nil {
		return nil, err
	}
	if m.Status != StatusPending {
		return nil, invalidf("message %s is %s, only pending messages can be resumed", messageID, m.Status)
	}
	return newStreamWriter(s, m.SessionID, m.ID, m.Parts), nil
}

// BranchBTW is the branch of a side conversation's (/btw) messages.
const BranchBTW = "btw"
