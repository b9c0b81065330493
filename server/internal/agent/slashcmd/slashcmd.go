package slashcmd

import (
	"context"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/skills"
	"github.com/govibe/govibe/server/internal/agent/slashcmd/customcmd"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/util/lazyload"
	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
)

// Params are what a command sees of the message that invoked it.
type Params struct {
	SessionID  string // "" before the session's first message
	ActiveFile string
	Selection  string
}

// Outcome is what Send does after a command: either the command answered
// the message itself (Handled: SessionID and TurnID name the job whose
// turnFinished closes it), or the message goes on as a turn with Text, as
// a side conversation when BTW.
type Outcome struct {
	Handled           bool
	SessionID, TurnID string
	Text              string
	BTW               bool
	// Model and Allowed (a custom command's frontmatter) hold for the
	// turn the command starts (LimitsOf).
	Model   string
	Allowed []string
	// Shell are the shell commands the custom command's file runs as it
	// expands (shell.go); their tokens in Text stand for their output.
	Shell []customcmd.ShellCall
}

// Handler runs a command; args is the text after the command word.
type Handler func(ctx context.Context, p Params, args string) (Outcome, error)

// Command and Registry are the registry's types with this handler.
type (
	Command  = command[Handler]
	Registry = registry[Handler]
)

// CompactCommand is the chat text that compacts instead of starting a turn.
const CompactCommand = "/compact"

const btwCommand = "btw"

// Host is what the commands need from the engine.
type Host interface {
	// CreateSession opens an empty chat session (its SessionStart hooks
	// run) and returns its id.
	CreateSession(ctx context.Context) (string, error)
	// RecentSessions lists up to limit sessions, newest first.
	RecentSessions(ctx context.Context, limit int) ([]store.Session, error)
	// Idle is nil, or the engine's busy error while a turn of the session
	// runs.
	Idle(sid string) error
	// PublishNotice shows the notice message m (already in the store) in
	// the session's chat as part of job.
	PublishNotice(sid, job string, m store.Message, text string)
	// PublishFinished closes job with turnFinished; withContext attaches
	// the context in use (a command such as /clear changes it).
	PublishFinished(ctx context.Context, sid, job string, withContext bool)
	// StartCompaction compacts the session in the background (trigger:
	// the command) and returns the job's id.
	StartCompaction(ctx context.Context, sid string) (job string, err error)
	// SessionModel is the model the session's next turn uses.
	SessionModel(ctx context.Context, sid string) string
	// Snapshots lists the session's snapshots, newest first.
	Snapshots(sid string) ([]Snapshot, error)
	// Restore puts a root back to a snapshot.
	Restore(ctx context.Context, snapshotID string) error
	// Usage is the session's accumulated usage.
	Usage(ctx context.Context, sid string) usage.Session
	// Tr translates a message a person reads.
	Tr(msg string, args ...any) string
}

// Snapshot is one snapshot of one workspace root as /undo sees it.
type Snapshot struct {
	ID, Root, Reason string
	Turn             int
}

// Skills is the skills capability as /skills uses it (skills.Manager).
type Skills interface {
	Catalog() *skills.Catalog
	Reload() *skills.Catalog
	Active(ctx context.Context, sid string) []string
}

// Hooks is the hooks capability as /clear uses it (hooks.Manager).
type Hooks interface {
	Fire(ctx context.Context, turnID string, in hooks.Input) hooks.Outcome
	SessionStart(ctx context.Context, sid, source string)
}

// Reconciler drafts a Vibe Manifest for /reconcile (moderun.Modes).
type Reconciler interface {
	DraftCommand(ctx context.Context, sid, intent string) (string, error)
}

// Prompts are the connected MCP servers' prompts (mcpclient.Manager).
type Prompts interface {
	Start(ctx context.Context)
	Prompts() []mcpclient.Prompt
	GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error)
}

// Options are the commands' configuration and the capabilities they use.
type Options struct {
	// Home is the user's home directory; Roots the workspace roots (the
	// first one is a custom command's $WORKSPACE and /init's default).
	Home  string
	Roots []string
	// Headless and Approve are govibe exec's: /init refuses a run that
	// would refuse its writes.
	Headless bool
	Approve  string
	// Trusted is the workspace's current trust: project commands load only
	// in a trusted workspace.
	Trusted   func() bool
	Skills    Skills
	Hooks     Hooks
	Reconcile Reconciler
	// MCP returns the current MCP manager (nil: none).
	MCP func() Prompts
	// Base bounds connecting the MCP servers for a /mcp: command.
	Base context.Context
	// Notice tells the user about custom command files that did not load
	// and conflicts (level info|warning).
	Notice func(level, msg string)
	Log    *zap.Logger
}

// Commands are one engine's slash commands. Safe for concurrent use.
type Commands struct {
	h  Host
	st *store.Store
	o  Options

	builtin *Registry // immutable after New apart from its own locking
	custom  *lazyload.Loader[customLoad]
}

// New registers the built-in commands; custom ones load on first use.
func New(h Host, st *store.Store, o Options) *Commands {
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	if o.Base == nil {
		o.Base = context.Background()
	}
	if o.Notice == nil {
		o.Notice = func(string, string) {}
	}
	if o.Trusted == nil {
		o.Trusted = func() bool { return false }
	}
	c := &Commands{h: h, st: st, o: o}
	c.builtin = c.newBuiltin()
	c.custom = c.newCustom()
	return c
}

// Match finds the command a message invokes: custom first, then the MCP
// prompts (for a /mcp: message), then the built-ins.
func (c *Commands) Match(text string) (Command, string, bool) {
	if cmd, args, ok := c.customRegistry().Match(text); ok {
		return cmd, args, true
	}
	if strings.HasPrefix(strings.ToLower(text), "/mcp:") && c.o.MCP != nil {
		// Prompts are known once their server is connected.
		if m := c.o.MCP(); m != nil {
			ctx, cancel := context.WithTimeout(c.o.Base, 30*time.Second)
			m.Start(ctx)
			cancel()
			if cmd, args, ok := c.prompts(m).Match(text); ok {
				return cmd, args, true
			}
		}
	}
	return c.builtin.Match(text)
}

// Run runs the command text invokes; matched is false for an ordinary
// message.
func (c *Commands) Run(ctx context.Context, p Params, text string) (out Outcome, matched bool, err error) {
	cmd, args, ok := c.Match(text)
	if !ok {
		return Outcome{}, false, nil
	}
	out, err = cmd.Handler(ctx, p, args)
	return out, true, err
}

// List is every slash command (custom ones replacing built-ins of the same
// name), sorted, for autocomplete and /help.
func (c *Commands) List() []Info {
	custom := c.customRegistry().List()
	seen := map[string]bool{}
	for _, x := range custom {
		seen[x.Name] = true
	}
	out := custom
	// The table is built again so its descriptions are in the language
	// of now (govibe.language may have changed since c.builtin was).
	for _, x := range c.newBuiltin().List() {
		if !seen[x.Name] {
			out = append(out, x)
		}
	}
	if c.o.MCP != nil {
		if m := c.o.MCP(); m != nil {
			out = append(out, c.prompts(m).List()...)
		}
	}
	sortInfos(out)
	return out
}

// ParseBTW recognises a side-conversation message (\btw or /btw) and
// returns the text without its prefix.
func (c *Commands) ParseBTW(text string) (bool, string) {
	if cmd, args, ok := c.builtin.Match(text); ok && cmd.Name == btwCommand {
		return true, args
	}
	return false, text
}

// Reset drops the custom commands (trust changed); the next use loads
// them again.
func (c *Commands) Reset() { c.custom.Reset() }

// Report loads the custom commands now, which reports their problems and
// conflicts (at start and after a trust change).
func (c *Commands) Report() { c.custom.Get() }

// sortInfos sorts by name, keeping the order of equal names (a custom
// command listed before an MCP prompt of the same name).
func sortInfos(xs []Info) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && strings.Compare(xs[j-1].Name, xs[j].Name) > 0; j-- {
			xs[j-1], xs[j] = xs[j], xs[j-1]
		}
	}
}
