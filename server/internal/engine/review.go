package engine

import (
	"github.com/govibe/govibe/server/internal/review/reviewers"
)

// The reviewers run in package reviewers (e.reviewers); their cards keep
// the engine's names for the engine's callers.
type (
	// ReviewCard is a reviewer's verdict as shown to the user.
	ReviewCard = reviewers.Card
	// ReviewProblem is one finding on a card.
	ReviewProblem = reviewers.Problem
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
