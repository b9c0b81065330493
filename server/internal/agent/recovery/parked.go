package recovery

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// Parked is a run a previous process left waiting on a question to the
// user (an edit or a shell command): its assistant message is still
// pending, the question still pending on disk, and the model track ends
// with the round whose calls lack results.
//
// It is built at start-up and never changed afterwards. Ownership passes
// through the Service's parked runs: whichever of the answer (Deps.Resume,
// which claims it with Take) or Release (a new message, Stop) first
// removed the question from the broker acts on it; the other does nothing.
type Parked struct {
	SessionID  string
	TurnID     string
	MessageID  string
	MessageSeq int64
	Confirm    approval.Confirm
	// Calls are the last round's calls still without a result, in order;
	// the confirmed call is one of them.
	Calls []llm.ToolCall
	BTW   bool
	// UserText and Number describe the user message the run answers
	// (snapshot labels, reviewers' context).
	UserText string
	Number   int
	// Asked is when the question was first asked: an ask_human question's
	// timeout runs on from there across restarts.
	Asked time.Time
}

// resumableKinds are the questions whose tool can run again with the
// recorded answer (an MCP call's too).
var resumableKinds = map[string]bool{"edit": true, "shell": true, "tool": true, "fetch": true}

// resumable reports whether the question c about a call named tool can be
// answered after a restart: edits, commands, MCP calls, ask_human's
// questions and the plan reviewer's "use this plan anyway?" about
// create_todo_list (the tool runs again and takes the recorded reply; the
// plan review does not run again).
func resumable(kind, tool string) bool {
	return resumableKinds[kind] || (kind == "question" && (tool == "ask_human" || tool == scheduler.ToolCreateTodo))
}

// findParked reports the run m left waiting on one of the open questions,
// or nil when m was interrupted in any other state (streaming, a tool
// running, inside a todo plan's step, text tool-call protocol).
func (s *Service) findParked(ctx context.Context, m store.PendingMessage, open []store.Confirmation) *Parked {
	st := s.d.Store
	msg, err := st.GetMessage(ctx, m.ID)
	if err != nil || msg.Role != store.RoleAssistant || (msg.SubAgentTag != "" && msg.SubAgentTag != s.d.FreeTag) {
		return nil
	}
	// Calls of this message that wait: recorded, neither finished nor
	// answered.
	waiting := map[string]string{} // call id → tool name
	for _, p := range msg.Parts {
		if p.Kind == store.PartToolCall && (p.ToolCall.Status == store.ToolPending || p.ToolCall.Status == store.ToolRunning) {
			waiting[p.ToolCall.ID] = p.ToolCall.Name
		}
	}
	for _, p := range msg.Parts {
		if p.Kind == store.PartToolResult {
			delete(waiting, p.ToolResult.ToolCallID)
		}
	}
	var conf *store.Confirmation
	for i := range open {
		if c := &open[i]; c.SessionID == m.SessionID && waiting[c.ToolCallID] != "" && resumable(c.Kind, waiting[c.ToolCallID]) {
			conf = c
			break
		}
	}
	if conf == nil {
		return nil
	}
	var c approval.Confirm
	if err := json.Unmarshal(conf.Payload, &c); err != nil || c.Kind != conf.Kind {
		return nil
	}
	c.ID, c.SessionID, c.ToolCallID = conf.ID, conf.SessionID, conf.ToolCallID
	entries, err := st.LLMEntries(ctx, m.SessionID)
	if err != nil {
		entries = nil // unreadable: no round to resume
	}
	calls := unansweredCalls(entries, m.ID)
	found := false
	for _, call := range calls {
		found = found || call.ID == c.ToolCallID
	}
	if !found {
		return nil
	}
	if c.TurnID == "" {
		c.TurnID = uuid.NewString()
	}
	// The number of the session's latest turn, without counting a new one.
	number := sessionstate.Lookup(ctx, st, m.SessionID, sessionstate.Turns)
	p := &Parked{SessionID: m.SessionID, TurnID: c.TurnID, MessageID: m.ID, MessageSeq: msg.Seq, Confirm: c,
		Calls: calls, BTW: msg.BTWBranch != "", Number: number, Asked: conf.Created}
	if u, err := st.GetMessage(ctx, msg.ReplyTo); err == nil {
		for _, part := range u.Parts {
			if part.Kind == store.PartText {
				p.UserText = part.Text
				break
			}
		}
	}
	_, p.UserText = s.d.ParseBTW(p.UserText)
	return p
}

// unansweredCalls returns the calls of the model track's last round still
// without a result, provided that round came from message msgID and
// nothing but its results follows it; otherwise nil (the track was
// rewritten, or the round is not the one the message is parked in).
func unansweredCalls(entries []store.LLMEntry, msgID string) []llm.ToolCall {
	last := -1
	for i := len(entries) - 1; i >= 0; i-- {
		if m := entries[i].Message; m.Role == llm.RoleAssistant {
			last = i
			break
		}
	}
	if last < 0 || entries[last].SourceMessageID != msgID || len(entries[last].Message.ToolCalls) == 0 {
		return nil
	}
	answered := map[string]bool{}
	for _, en := range entries[last+1:] {
		if en.Message.Role != llm.RoleTool {
			return nil
		}
		answered[en.Message.ToolCallID] = true
	}
	var out []llm.ToolCall
	for _, c := range entries[last].Message.ToolCalls {
		if !answered[c.ID] {
			out = append(out, c)
		}
	}
	return out
}

// park re-registers p's question and shows it again; answering it resumes
// the run.
func (s *Service) park(p *Parked) {
	s.mu.Lock()
	s.parked[p.SessionID] = p
	delete(s.interrupted, p.SessionID)
	s.mu.Unlock()
	s.d.Dialogs.Restore(p.Confirm, func(a approval.Answer) { s.d.Resume(p, a) })
	s.d.Questions.ExpireRestored(p.Confirm, p.Calls, p.Asked)
}

// Release closes the session's restored question without an answer and
// ends its run: every call still without a result gets one saying it was
// not executed and why, so the model track keeps one result per call. It
// returns Deps.Busy when the answer won the race and the run is resuming.
func (s *Service) Release(sid, why string) error {
	s.mu.Lock()
	p := s.parked[sid]
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	if !s.d.Dialogs.Withdraw(p.Confirm.ID) {
		return s.d.Busy
	}
	// p stays parked until its message is closed, so a concurrent Send
	// waits (Busy) instead of starting a turn before the results.
	defer func() {
		s.mu.Lock()
		if s.parked[sid] == p {
			delete(s.parked, sid)
		}
		s.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w, err := s.d.Store.ResumeWriter(ctx, p.MessageID)
	if err != nil {
		return err
	}
	text := "interrupted: not executed (" + why + ")"
	for _, c := range p.Calls {
		if err := w.AddToolResult(ctx, store.ToolResult{ToolCallID: c.ID, Output: text},
			llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: "Error: " + text}); err != nil {
			return err
		}
		s.d.Events.ToolResult(sid, p.TurnID, p.MessageID, c, text)
	}
	if err := w.Finalize(ctx, store.StatusCancelled, nil); err != nil {
		return err
	}
	s.d.Events.TurnCancelled(sid, p.TurnID, p.MessageID)
	s.d.Changed(ctx, sid)
	return nil
}
