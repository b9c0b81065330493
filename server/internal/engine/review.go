package engine

import (
	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
)

// turnTarget finds the running turn of a session, for reviews requested
// from outside a turn's approver (ReviewPlan).
func (e *Engine) turnTarget(sid string) reviewers.Target {
	e.mu.Lock()
	defer e.mu.Unlock()
	rt := reviewers.Target{SessionID: sid}
	if t := e.running[sid]; t != nil {
		rt.TurnID = t.id
		if t.writer != nil {
			rt.MessageID = t.writer.MessageID()
		}
	}
	return rt
}
