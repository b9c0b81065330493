package server

import (
	"context"
	"sync"

	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/host/i18n"
	"github.com/govibe/govibe/server/internal/host/logging"
)

// Version is the sidecar's version, set by the linker.
var Version = "0.1.0-dev"

// Server is the sidecar's protocol.Server. Methods are called by the wire
// layer: ordered methods one at a time, reads concurrently; mu guards the
// engine pointer and lifecycle flags.
type Server struct {
	client protocol.Client
	log    *logging.Logger
	// exit is called when the client sends exit.
	exit func(code int)

	mu       sync.Mutex
	eng      *engine.Engine
	engErr   error
	started  bool // initialize was accepted
	shutdown bool
	unsub    func()
	// ready closes once the engine has opened (or failed to): initialize
	// answers before the session store is open, so the editor is never
	// kept waiting on disk, and every later request waits here instead.
	ready chan struct{}
	// lang is the UI language (govibe.language over the editor's locale),
	// for messages sent outside the engine; it follows settings/didChange.
	lang i18n.Lang
	// locale is the editor's locale from initialize, which
	// govibe.language "auto" falls back to.
	locale string
	// trusted is the workspace trust from initialize; warned holds the
	// settings warnings already shown.
	trusted bool
	warned  map[string]bool
	// settings are the editor's last settings (initialize or
	// settings/didChange), applied again under a new trust: an untrusted
	// workspace's own settings count from the moment it is trusted.
	settings protocol.Settings
	// permProblems are the invalid permission rules last reported.
	permProblems string
	// inputSecrets are the MCP input values (mcp/setInputs), redacted from
	// the log like the API keys; keys are the last API keys seen.
	inputSecrets map[string]string
	apiKeys      map[string]string
}

// New returns a Server that talks back through client.
func New(client protocol.Client, log *logging.Logger, exit func(code int)) *Server {
	return &Server{client: client, log: log, exit: exit, ready: make(chan struct{})}
}

var _ protocol.Server = (*Server)(nil)

func (s *Server) engine(ctx context.Context) (*engine.Engine, error) {
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	if !started {
		return nil, protocol.Errorf(protocol.CodeServerNotInitialized, "the server is not initialized")
	}
	select {
	case <-s.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.engErr != nil {
		return nil, protocol.Errorf(protocol.CodeInternalError, "%s", i18n.T(s.lang, "GoVibe could not start: %v", s.engErr))
	}
	if s.shutdown || s.eng == nil {
		return nil, protocol.Errorf(protocol.CodeInvalidState, "the server is shutting down")
	}
	return s.eng, nil
}

// Close releases the engine; used when the connection drops.
func (s *Server) Close() {
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	if started {
		<-s.ready
	}
	s.mu.Lock()
	eng, unsub := s.eng, s.unsub
	s.eng, s.unsub = nil, nil
	s.mu.Unlock()
	if eng != nil {
		if err := eng.Close(); err != nil {
			s.log.Warn("closing the engine", zap.Error(err))
		}
	}
	if unsub != nil {
		unsub()
	}
}

// notify sends a notification without blocking the caller on a slow or
// gone client for long.
func (s *Server) notify(f func(ctx context.Context) error) {
	if err := f(context.Background()); err != nil {
		s.log.Debug("notification not delivered", zap.Error(err))
	}
}
