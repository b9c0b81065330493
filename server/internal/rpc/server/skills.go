package server

import (
	"context"
	"strings"

	"github.com/govibe/govibe/protocol"
)

// SkillsList answers the chat's skills picker.
func (s *Server) SkillsList(ctx context.Context, p *protocol.SkillsListParams) (*protocol.SkillsListResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	out := &protocol.SkillsListResult{Skills: []protocol.SkillInfo{}}
	for _, en := range eng.Skills.Entries(ctx, p.SessionID) {
		out.Skills = append(out.Skills, protocol.SkillInfo{Name: en.Name, Description: en.Description, Source: en.Source, Active: en.Active, Scope: en.Scope})
	}
	return out, nil
}

// SkillsSetActive activates or deactivates a skill and answers the new list.
func (s *Server) SkillsSetActive(ctx context.Context, p *protocol.SkillsSetActiveParams) (*protocol.SkillsListResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(p.Name)
	if name == "" {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "skills/setActive: name is required")
	}
	if p.Active {
		if !p.Workspace && p.SessionID == "" {
			return nil, protocol.Errorf(protocol.CodeInvalidParams, "skills/setActive: a session is required unless workspace is set")
		}
		if err := eng.Skills.Activate(ctx, p.SessionID, name, p.Workspace); err != nil {
			return nil, protocol.Errorf(protocol.CodeInvalidParams, "skills/setActive: %v", err)
		}
	} else if err := eng.Skills.Deactivate(ctx, p.SessionID, name); err != nil {
		return nil, err
	}
	return s.SkillsList(ctx, &protocol.SkillsListParams{SessionID: p.SessionID})
}
