package server

import (
	"context"
	"errors"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/gate/allowrules"
)

// The always-allow rules ("Always allow" on a confirmation card): listed
// and revoked from the editor.

func (s *Server) PermissionsList(ctx context.Context) (*protocol.PermissionsListResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	return allowList(eng), nil
}

func (s *Server) PermissionsRevoke(ctx context.Context, p *protocol.PermissionsRevokeParams) (*protocol.PermissionsListResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	if err := eng.Approvals.AllowRules().Revoke(p.Rule); err != nil {
		code := protocol.CodeInternalError
		if errors.Is(err, allowrules.ErrNotFound) {
			code = protocol.CodeNotFound
		}
		return nil, protocol.Errorf(code, "%v", err)
	}
	return allowList(eng), nil
}

func allowList(eng *engine.Engine) *protocol.PermissionsListResult {
	f := eng.Approvals.AllowRules()
	out := &protocol.PermissionsListResult{File: f.Path(), Rules: []protocol.AllowRule{}}
	es, err := f.List()
	if err != nil {
		out.Error = err.Error()
	}
	for _, e := range es {
		out.Rules = append(out.Rules, protocol.AllowRule{Rule: e.Rule, Added: e.Added.UnixMilli()})
	}
	return out
}
