package subagent

import (
	"context"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Host is what the sub-agent tools (investigate, agent_<name>,
// browser_sub_agent) need from the engine: a hidden child session to run
// in, a model, and the SubagentStop hooks.
type Host interface {
	// Begin opens a hidden child session of env's session for one
	// sub-agent of env's turn, tagged tag ("investigate", "agent:<name>",
	// "browser_sub_agent"), whose first message is prompt. Its progress
	// is published on the parent session under the tag; everything is
	// persisted in the child.
	Begin(ctx context.Context, env *tools.Env, title, tag, prompt string) (Child, error)
	// AgentModel is the model of the sub-agent called name for the
	// parent session: its role's profile, or the model a definition
	// names.
	AgentModel(ctx context.Context, parentSID, name, model string) (Model, error)
	// BrowserModel is the main profile's model for the browser agent,
	// ToolCalling as configured (the browser run resolves it).
	BrowserModel() (Model, error)
	// Stopped runs the SubagentStop hooks for tag on the parent's turn.
	Stopped(ctx context.Context, turnID, parentSID, tag string)
	// Browser is what the browser agent may reach and where its
	// screenshots go (a folder per child session).
	Browser(childSID string) BrowserConfig
	Tr(msg string, args ...any) string
}

// Child is one sub-agent's hidden child session, open for its run.
type Child interface {
	ID() string
	// Sink publishes the run's progress under the child's tag.
	Sink() agent.Sink
	// CommitUser records text as the child's first model message.
	CommitUser(ctx context.Context, text string) error
	// Finish ends the child's turn: cancelled when ctx ended, an error
	// (with err as its notice) when err is set, done otherwise.
	Finish(ctx context.Context, err error, usage *llm.Usage)
	// Notes is what the run's model reads with its next tool result
	// about what the user did meanwhile: the parent turn's question
	// dialog closed (a sub-agent's ask_human asks in the turn's dialog),
	// given once to whichever agent of the turn records a result first.
	Notes() string
}

// Model is a resolved model client with its run options.
type Model struct {
	Client         llm.Client
	ToolCalling    string
	OnTextFallback func() bool
	MaxTokens      int
}

// BrowserConfig is the browser agent's reach (see package browser).
type BrowserConfig struct {
	ExecutablePath string
	AllowLocalhost bool
	AllowHosts     []string
	ScreenshotDir  string
}
