package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/modes"
)

func (s *Server) ChatSetMode(ctx context.Context, p *protocol.ChatSetModeParams) (*protocol.Empty, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := modes.Parse(p.Mode); err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "%s", err.Error())
	}
	if err := eng.SetMode(ctx, p.SessionID, p.Mode); err != nil {
		return nil, notFound(err)
	}
	return &protocol.Empty{}, nil
}

func (s *Server) ChatRunPlan(ctx context.Context, p *protocol.ChatRunPlanParams) (*protocol.ChatSendResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	sid, tid, err := eng.RunPlan(ctx, p.SessionID)
	if err != nil {
		return nil, notFound(err)
	}
	return &protocol.ChatSendResult{SessionID: sid, TurnID: tid}, nil
}
