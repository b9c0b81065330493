package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/eventview"
)

func (s *Server) ChatSetMode(ctx context.Context, p *protocol.ChatSetModeParams) (*protocol.Empty, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := modes.Parse(p.Mode); err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "%s", err.Error())
	}
	if err := eng.Modes.Set(ctx, p.SessionID, p.Mode); err != nil {
		return nil, notFound(err)
	}
	return &protocol.Empty{}, nil
}

func (s *Server) ChatRunPlan(ctx context.Context, p *protocol.ChatRunPlanParams) (*protocol.ChatSendResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	var edits []engine.PlanEdit
	if p.Items != nil {
		edits = make([]engine.PlanEdit, len(p.Items))
		for i, it := range p.Items {
			edits[i] = engine.PlanEdit{Title: it.Title, Description: it.Description, Acceptance: it.Acceptance}
		}
	}
	sid, tid, err := eng.RunPlan(ctx, p.SessionID, edits)
	if err != nil {
		return nil, notFound(err)
	}
	return &protocol.ChatSendResult{SessionID: sid, TurnID: tid}, nil
}

// ModeGet is the session's mode with its record, for a panel opened (or
// reloaded) after the events that built it.
func (s *Server) ModeGet(ctx context.Context, p *protocol.ModeGetParams) (*protocol.ModeState, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	return modeState(ctx, eng, p.SessionID), nil
}

func modeState(ctx context.Context, eng *engine.Engine, sid string) *protocol.ModeState {
	m := eng.Modes.Mode(ctx, sid)
	out := &protocol.ModeState{Mode: string(m)}
	switch m {
	case modes.Phases:
		ph := eventview.Phases(eng.Modes.Progress(ctx, sid))
		out = &ph
	case modes.Reconcile:
		if v, ok := eng.Modes.ReconcileState(ctx, sid); ok {
			r := eventview.Reconcile(v)
			out.Reconcile, out.State = &r, r.Phase
		}
	}
	return out
}

func (s *Server) ReconcileApprove(ctx context.Context, p *protocol.ReconcileApproveParams) (*protocol.ChatSendResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	sid, tid, err := eng.Modes.ApproveManifest(ctx, p.SessionID, p.Manifest)
	if err != nil {
		return nil, reconcileError(eng, err)
	}
	return &protocol.ChatSendResult{SessionID: sid, TurnID: tid}, nil
}

func (s *Server) ReconcileResume(ctx context.Context, p *protocol.ReconcileParams) (*protocol.ChatSendResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	sid, tid, err := eng.Modes.ResumeReconcile(ctx, p.SessionID)
	if err != nil {
		return nil, reconcileError(eng, err)
	}
	return &protocol.ChatSendResult{SessionID: sid, TurnID: tid}, nil
}
