package turntools

import (
	"context"
	"sync"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/agent/slashcmd"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/profiles"
	"github.com/govibe/govibe/server/internal/workspace/tools"
	"github.com/govibe/govibe/server/internal/workspace/web"
)

// Turn is what a turn's tools depend on: the engine copies it from its
// running turn, never sharing the fields the turn's goroutine changes.
// Where only the limits matter (a compaction's prefix, the context
// estimate, the offered list) ID and Text are empty, as they were.
type Turn struct {
	SessionID, ID string
	// Text is the user's request (the plan tools quote it).
	Text string
	// BTW: the turn is a side conversation (/btw).
	BTW bool
	// Limits come from the custom command that started the turn; the
	// zero value means the session's.
	Limits slashcmd.Limits
	// Mode is the session's mode as Send loaded it; not loaded, it is
	// read when asked (moderun.Turn.Loaded).
	Mode moderun.Turn
	// MessageID is the turn's assistant message so far ("" before one).
	MessageID func() string
}

// Profiles resolves the model profile of a role and of a turn.
type Profiles interface {
	ForRole(ctx context.Context, sid, role string) profiles.Profile
	Turn(ctx context.Context, sid, command string) profiles.Profile
	// ToolCalling is the protocol p calls tools in ("text" or native).
	ToolCalling(p profiles.Profile) string
}

// Plans gives the todo plan's tools of a role.
type Plans interface {
	Tools(sid, turnID, request string, role scheduler.Role, tag string, propose bool) (create, complete tools.Tool)
}

// Compaction gives the free run's compaction tools.
type Compaction interface {
	FreeTools(sid, turnID string) []tools.Tool
}

// Hooks wraps tools in the PreToolUse and PostToolUse hooks.
type Hooks interface {
	WithHooks(ts []tools.Tool) []tools.Tool
}

// Approvals is the approval flow a turn's tools ask.
type Approvals interface {
	For(t approval.Turn) *approval.Approver
}

// Deps are the collaborators; every field is required except Log.
type Deps struct {
	Profiles   Profiles
	Plans      Plans
	Compaction Compaction
	Hooks      Hooks
	Approvals  Approvals
	// Modes is the session's mode read now.
	Modes func(ctx context.Context, sid string) moderun.Turn
	// Subagents, Browser and MCP are the sub-agent tools, the browser
	// sub-agent and the MCP servers' tools (allowed: a custom command's
	// allowedTools; nil: all).
	Subagents func(ctx context.Context, sid string) []tools.Tool
	Browser   func() tools.Tool
	MCP       func(ctx context.Context, allowed map[string]bool) []tools.Tool
	// Prompt is the system prompt of a run in sit offering offered.
	Prompt func(sid string, sit toolpolicy.Situation, offered []tools.Tool) string
	// Live is the session's running turn, Latest its most recent one
	// (running or ended), each with only its limits; a session without
	// one gives Turn{SessionID: sid}.
	Live, Latest func(sid string) Turn
	Settings     func() config.Settings
	// Notice tells the user something that belongs to no session.
	Notice func(level, msg string)
	Tr     func(string, ...any) string
	Log    *zap.Logger
	// Roots are the workspace roots (the evaluator's read-only shell).
	Roots []string
	// FreeTag is the free run's agent tag.
	FreeTag string
	// NoEditor: no editor host is attached (headless).
	NoEditor bool
}

// Service decides a turn's tools and their environment. Safe for
// concurrent use.
type Service struct {
	d Deps
	// reported remembers the tool-profile problems already shown.
	reported onceSet
	// sandboxNoticed: the notice that commands run without the full
	// sandbox is given once per process, on the first turn.
	sandboxNoticed sync.Once

	mu  sync.Mutex
	web *web.Fetcher
}

// New returns the service, its web fetcher built for the current settings.
func New(d Deps) *Service {
	if d.Log == nil {
		d.Log = zap.NewNop()
	}
	s := &Service{d: d}
	s.web = newWebFetcher(d.Settings(), nil)
	return s
}

// Approver is the approval flow of turn t.
func (s *Service) Approver(t Turn, beforeMutation func(context.Context)) *approval.Approver {
	return s.d.Approvals.For(approval.Turn{SessionID: t.SessionID, ID: t.ID, Request: t.Text, BeforeMutation: beforeMutation,
		AllowRules: t.Limits.Rules, MessageID: t.MessageID})
}

// onceSet remembers which keys were seen; first reports a key's first
// sighting. The zero value is ready.
type onceSet struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (o *onceSet) first(key string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen[key] {
		return false
	}
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	o.seen[key] = true
	return true
}
