package engine

import (
	"context"

	"github.com/govibe/govibe/server/internal/store"
)

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

// subAgentRuns reads the sub-agents that ran while one of msgs was open.
// Sessions from before child sessions recorded their anchor have none.
func (e *Engine) subAgentRuns(ctx context.Context, sid string, msgs []store.Message) ([]SubAgentRun, error) {
	ids := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if m.Role == store.RoleAssistant {
			ids = append(ids, m.ID)
		}
	}
	children, err := e.Store.SubagentRuns(ctx, sid, ids)
	if err != nil || len(children) == 0 {
		return nil, err
	}
	out := make([]SubAgentRun, 0, len(children))
	for _, c := range children {
		page, err := e.Store.LoadMessages(ctx, c.ID, 0, subAgentMessages)
		if err != nil {
			return nil, err
		}
		run := SubAgentRun{Session: c, Messages: page.Messages}
		if page.HasMore {
			run.Earlier = max(0, c.MessageCount-len(page.Messages))
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
