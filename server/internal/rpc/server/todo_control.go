package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/agent/scheduler/planrun"
)

// TodoControl applies the todo panel's Stop, Skip item, Retry item and
// Resume. The wire index is 0-based like TodoState.Current; a negative
// index with skip names the item in progress.
func (s *Server) TodoControl(ctx context.Context, p *protocol.TodoControlParams) (*protocol.Empty, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	switch p.Action {
	case planrun.Stop, planrun.Skip, planrun.Retry, planrun.Resume:
	default:
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "unknown todo action %q (want stop, skip, retry or resume)", p.Action)
	}
	if _, err := eng.Store.GetSession(ctx, p.SessionID); err != nil {
		return nil, notFound(err)
	}
	if err := eng.TodoControl(ctx, p.SessionID, p.Action, p.Index); err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidState, "%s", err.Error())
	}
	return &protocol.Empty{}, nil
}
