package server

import (
	"context"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
)

// The MCP status view: states, restart, enable and disable.

func (s *Server) MCPStatus(ctx context.Context, p *protocol.MCPStatusParams) (*protocol.MCPStatusResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	if p.Connect {
		eng.MCP.Manager().Start(ctx)
	}
	return mcpStatus(eng), nil
}

func (s *Server) MCPRestart(ctx context.Context, p *protocol.MCPServerParams) (*protocol.MCPStatusResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	if err := eng.MCP.Manager().Restart(ctx, p.Name); err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "%v", err)
	}
	return mcpStatus(eng), nil
}

func (s *Server) MCPSetEnabled(ctx context.Context, p *protocol.MCPSetEnabledParams) (*protocol.MCPStatusResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	if err := eng.MCP.Manager().SetEnabled(p.Name, p.Enabled); err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "%v", err)
	}
	if p.Enabled {
		// Enabling in the status view means "use it": start it now, so
		// the view shows it connected (or failed, with its stderr).
		_ = eng.MCP.Manager().Connect(ctx, p.Name)
	}
	return mcpStatus(eng), nil
}

func (s *Server) MCPSetInputs(ctx context.Context, p *protocol.MCPSetInputsParams) (*protocol.MCPStatusResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.inputSecrets == nil {
		s.inputSecrets = map[string]string{}
	}
	for k, v := range p.Values {
		s.inputSecrets[k] = v
	}
	s.mu.Unlock()
	// The values are secrets: redacted from every log line from now on.
	s.applyLogSettings(eng.Settings(), nil)
	eng.MCP.SetInputs(p.Values)
	return mcpStatus(eng), nil
}

func mcpStatus(eng *engine.Engine) *protocol.MCPStatusResult {
	out := &protocol.MCPStatusResult{Servers: []protocol.MCPServerStatus{}, Skipped: eng.MCP.Skipped()}
	if out.Skipped == nil {
		out.Skipped = []string{}
	}
	for _, st := range eng.MCP.Manager().Statuses() {
		out.Servers = append(out.Servers, protocol.MCPServerStatus{Name: st.Name, State: string(st.State), Kind: st.Kind, Source: st.Source,
			Tools: st.Tools, SchemaTokens: st.SchemaChars / 4, Error: st.Error, StderrTail: st.StderrTail, Restarts: st.Restarts,
			NeedsInputs: toMCPInputs(st.NeedsInputs)})
	}
	return out
}

func toMCPInputs(in []mcpclient.Input) []protocol.MCPInput {
	var out []protocol.MCPInput
	for _, i := range in {
		out = append(out, protocol.MCPInput{ID: i.ID, Description: i.Description, Password: i.Password})
	}
	return out
}
