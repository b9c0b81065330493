package protocol

import "github.com/govibe/govibe/protocol/eventdata"

// The chat events' payload types are declared once, in package eventdata,
// which the engine shares; the protocol names them for its other methods
// (session/load, mode/get, todo/get and confirmations carry them too).
type (
	HookRun        = eventdata.HookRun
	ContextUse     = eventdata.ContextUse
	Usage          = eventdata.Usage
	CacheMiss      = eventdata.CacheMiss
	TodoState      = eventdata.TodoState
	TodoItem       = eventdata.TodoItem
	ReviewCard     = eventdata.ReviewCard
	ReviewProblem  = eventdata.ReviewProblem
	ModeState      = eventdata.ModeState
	ReconcileState = eventdata.ReconcileState
	TurnSnapshot   = eventdata.TurnSnapshot
	Notification   = eventdata.Notification
)
