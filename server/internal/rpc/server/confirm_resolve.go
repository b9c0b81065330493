package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/gate/approval"
)

// ConfirmResolve answers a parked confirmation. The tool waiting on it is
// released; this handler never waits for the tool.
func (s *Server) ConfirmResolve(ctx context.Context, p *protocol.ConfirmResolveParams) (*protocol.Empty, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	var accept bool
	switch p.Decision {
	case protocol.DecisionAccept:
		accept = true
	case protocol.DecisionReject:
	default:
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "decision must be %q or %q, got %q", protocol.DecisionAccept, protocol.DecisionReject, p.Decision)
	}
	a := approval.Answer{Accept: accept, Reason: p.Reason, Content: p.Content, Applied: p.Applied, RejectedHunks: p.RejectedHunks, Command: p.Command, Answer: p.Answer, AlwaysAllow: p.AlwaysAllow}
	if err := eng.Broker.Resolve(p.ID, a); err != nil {
		return nil, protocol.Errorf(protocol.CodeNotFound, "%s", err.Error())
	}
	return &protocol.Empty{}, nil
}
