package server

import (
	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
)

// toTodoState converts a plan for the wire; nil stays nil.
func toTodoState(p *scheduler.Plan) *protocol.TodoState {
	if p == nil {
		return nil
	}
	out := &protocol.TodoState{Goal: p.Goal, Current: p.Current, Phase: string(p.Phase), Items: make([]protocol.TodoItem, 0, len(p.Items))}
	for _, it := range p.Items {
		out.Items = append(out.Items, protocol.TodoItem{Title: it.Title, Description: it.Description, Acceptance: it.Acceptance,
			Status: string(it.Status), Agent: it.Agent, Turns: it.Turns, Attempts: it.Attempts, Summary: it.Summary})
	}
	return out
}
