package engine

import (
	"context"

	"github.com/govibe/govibe/server/internal/allowrules"
	"github.com/govibe/govibe/server/internal/approval"
)

// approverOf is the approval flow of a turn.
func (e *Engine) approverOf(t *turn, beforeMutation func(context.Context)) *approval.Approver {
	return e.Approvals.For(approval.Turn{SessionID: t.sessionID, ID: t.id, Request: t.text, BeforeMutation: beforeMutation,
		AllowRules: t.limits.Rules,
		MessageID: func() string {
			if t.writer != nil {
				return t.writer.MessageID()
			}
			return ""
		}})
}

// AllowRules is the user's always-allow file (nil when none is
// configured, as in tests that do not ask for one).
func (e *Engine) AllowRules() *allowrules.File { return e.opts.AllowRules }
