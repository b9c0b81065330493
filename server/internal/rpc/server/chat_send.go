package server

import (
	"context"
	"errors"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/engine"
)

// ChatSend starts a turn and returns at once; its events follow.
func (s *Server) ChatSend(ctx context.Context, p *protocol.ChatSendParams) (*protocol.ChatSendResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	sp := engine.SendParams{SessionID: p.SessionID, Text: p.Text, RetryOf: p.RetryOf}
	if p.Editor != nil {
		sp.ActiveFile, sp.Selection = p.Editor.ActiveFile, p.Editor.Selection
	}
	sid, tid, err := eng.Send(ctx, sp)
	if errors.Is(err, engine.ErrBusy) {
		return nil, protocol.Errorf(protocol.CodeBusy, "%s", eng.Tr("this session is still working on the previous message; stop it or wait"))
	}
	if errors.Is(err, engine.ErrRunningElsewhere) {
		return nil, protocol.Errorf(protocol.CodeBusy, "%s", eng.Tr("This chat is running a turn in another window; wait for it there, or stop it there."))
	}
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "%s", err.Error())
	}
	return &protocol.ChatSendResult{SessionID: sid, TurnID: tid}, nil
}
