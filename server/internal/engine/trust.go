package engine

import (
	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/trust"
)

// Workspace trust is trust.Gate; the engine wires what it gates: the
// skills, custom commands, hooks and MCP servers are dropped on a change
// and loaded again under the new trust.

// ActionTrustWorkspace is the notice action that asks the editor to
// offer workspace trust.
const ActionTrustWorkspace = trust.ActionTrustWorkspace

// notice tells the user something that belongs to no session.
func (e *Engine) notice(level, msg string) { e.noticeAction(level, msg, "") }

// noticeAction is a notice with a remedy the client can offer.
func (e *Engine) noticeAction(level, msg, action string) {
	e.log.Info("notice", zap.String("level", level), zap.String("message", msg), zap.String("action", action))
	if e.opts.OnNotice != nil {
		e.opts.OnNotice(level, msg, action)
	}
}
