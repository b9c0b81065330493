package sessions

import (
	"context"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// Loaded is one page of a session plus its live state.
type Loaded struct {
	Session       Summary
	Page          store.MessagePage
	LastSeq       int64
	RunningTurnID string
	Pending       []approval.Confirm
	EditEnabled   bool
	Interrupted   bool
	// Todo is the session's todo plan, nil when it has none.
	Todo *scheduler.Plan
	// SubAgents ran while a message of Page was open.
	SubAgents []SubAgentRun
}

// SubAgentRun is a sub-agent's work as a reopened session shows it: its
// child session's messages, anchored where it ran in the parent.
type SubAgentRun struct {
	Session  store.Session
	Tag      string
	Messages []store.Message
	// Earlier counts the child's messages older than Messages (the client
	// pages them in on demand).
	Earlier int
}

// subAgentMessages caps what one group brings back: a sub-agent's run is
// bounded by its own turn limits, this only guards the page's size.
const subAgentMessages = 200

// Load returns a page of the UI track, newest first when beforeSeq is 0.
// LastSeq is read before the page so that no live event can fall between
// the page and the events the client applies after it: a client may see
// an event whose effect is already in the page, and dedupes by seq.
func (c *Catalog) Load(ctx context.Context, sid string, beforeSeq int64, limit int) (Loaded, error) {
	if limit <= 0 {
		limit = 200
	}
	last := c.d.Bus.LastSeq(sid)
	s, err := c.d.Store.GetSession(ctx, sid)
	if err != nil {
		return Loaded{}, err
	}
	if beforeSeq == 0 {
		// Opening the session: what a closed window left pending in it
		// is settled before it is shown (package recovery).
		c.d.Turns.Settle(ctx, sid)
	}
	// Buffered deltas are not yet on disk: flush them so the page holds
	// all text up to LastSeq.
	c.d.Turns.Flush(ctx, sid)
	page, err := c.d.Store.LoadMessages(ctx, sid, beforeSeq, limit)
	if err != nil {
		return Loaded{}, err
	}
	page.Messages = c.withoutRetried(ctx, sid, page.Messages)
	subs, err := c.subAgentRuns(ctx, sid, page.Messages)
	if err != nil {
		return Loaded{}, err
	}
	interrupted := c.d.Turns.Interrupted(sid)
	live := c.d.Turns.Shown(sid)
	return Loaded{SubAgents: subs,
		Session: Summary{Session: s, Running: live != ""}, Page: page, LastSeq: last,
		RunningTurnID: live, Pending: c.d.Dialogs.Pending(sid), EditEnabled: c.d.Turns.EditEnabled(ctx, sid),
		Interrupted: interrupted, Todo: c.d.Plans.Todo(ctx, sid),
	}, nil
}

// withoutRetried drops the messages of turns a retry replaced (the engine
// records them in sessionstate.RetriedTurns, engine/retry.go): each such
// user message and the reply to it (a user message's own ReplyTo is the
// message before it, so only replies count).
func (c *Catalog) withoutRetried(ctx context.Context, sid string, ms []store.Message) []store.Message {
	gone := sessionstate.Lookup(ctx, c.d.Store, sid, sessionstate.RetriedTurns)
	if len(gone) == 0 {
		return ms
	}
	out := ms[:0:0]
	for _, m := range ms {
		if gone[m.ID] || (m.Role != store.RoleUser && m.ReplyTo != "" && gone[m.ReplyTo]) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// subAgentRuns reads the sub-agents that ran while one of msgs was open.
// Sessions from before child sessions recorded their anchor have none.
func (c *Catalog) subAgentRuns(ctx context.Context, sid string, msgs []store.Message) ([]SubAgentRun, error) {
	ids := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if m.Role == store.RoleAssistant {
			ids = append(ids, m.ID)
		}
	}
	children, err := c.d.Store.SubagentRuns(ctx, sid, ids)
	if err != nil || len(children) == 0 {
		return nil, err
	}
	out := make([]SubAgentRun, 0, len(children))
	for _, ch := range children {
		page, err := c.d.Store.LoadMessages(ctx, ch.ID, 0, subAgentMessages)
		if err != nil {
			return nil, err
		}
		run := SubAgentRun{Session: ch, Messages: page.Messages}
		if page.HasMore {
			run.Earlier = max(0, ch.MessageCount-len(page.Messages))
		}
		for _, m := range page.Messages {
			if m.SubAgentTag != "" {
				run.Tag = m.SubAgentTag
				break
			}
		}
		out = append(out, run)
	}
	return out, nil
}
