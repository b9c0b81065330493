package engine

import (
	"context"
	"errors"
	"sync"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/agent/compact/sessioncompact"
	"github.com/govibe/govibe/server/internal/agent/dialogs"
	"github.com/govibe/govibe/server/internal/agent/memory"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/recovery"
	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/agent/scheduler/planrun"
	"github.com/govibe/govibe/server/internal/agent/skills"
	"github.com/govibe/govibe/server/internal/agent/slashcmd"
	"github.com/govibe/govibe/server/internal/agent/titles"
	"github.com/govibe/govibe/server/internal/agent/turninput"
	"github.com/govibe/govibe/server/internal/agent/turntools"
	"github.com/govibe/govibe/server/internal/gate/allowrules"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/gate/trust"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/profiles"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/model/usage/budgetgate"
	"github.com/govibe/govibe/server/internal/rpc/eventbus"
	"github.com/govibe/govibe/server/internal/storage/sessions"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
	"github.com/govibe/govibe/server/internal/workspace/rollback"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Options configure New.
type Options struct {
	Roots    []string
	StateDir string
	// LegacyStateDirs are storage folders that kept this workspace's
	// sessions before they moved to StateDir (the editor's per-window
	// slots): their sessions and snapshots are merged in, once each.
	LegacyStateDirs []string
	Logger          *zap.Logger
	Settings        config.Values
	// APIKeys by profile name; "" is the default profile's key.
	APIKeys map[string]string
	Host    tools.Host
	Editor  approval.Editor
	// Headless selects the non-interactive approval policy Approve
	// (none|edits|all).
	Headless bool
	Approve  string
	// AskTerminal answers ask_human in a headless run (exec with a TTY on
	// stdin); nil means nobody can answer there.
	AskTerminal func(context.Context, tools.HumanQuestion) (tools.HumanReply, error)
	// SettingOrigin says, in the user's language, where a setting's value
	// was written ("the --set flags"), so an invalid permission rule is
	// reported there; nil (the editor) names user or workspace settings.
	SettingOrigin func(key string) string
	HostInfo      HostInfo
	// Trusted is the workspace's trust at start; Trust.Set changes it.
	Trusted bool
	// Home is the user's home directory (user skills, hooks, MCP config);
	// "" means os.UserHomeDir, resolved once by New.
	Home string
	// AllowRules is the user's always-allow file (allowrules.DefaultPath
	// for serve and exec); nil offers no "Always allow".
	AllowRules *allowrules.File
	// OnNotice tells the user something that belongs to no session (what
	// trust skipped, malformed project config); level is
	// info|warning|error; action names a remedy the client can offer
	// ("trustWorkspace") or is empty.
	OnNotice func(level, message, action string)
	// OnNoticeWithdrawn says the notices carrying action no longer hold
	// (the untrusted-workspace notice once trust is granted). May be nil.
	OnNoticeWithdrawn func(action string)
	// Terminal reads the active terminal's recent output for an @terminal
	// mention (the editor's shell integration); nil when there is none.
	Terminal func(ctx context.Context, maxChars int) (string, error)
	// NewClient builds the model client; tests may substitute it.
	NewClient func(llm.Profile, llm.Options) (llm.Client, error)
	// Confirm callbacks tell the client about parked questions.
	OnConfirm       func(approval.Confirm)
	OnConfirmClosed func(id, reason string)
	OnSession       func(sessions.Summary)
	OnSnapshot      func(rollback.SnapshotInfo)
}

// HostInfo is the editor environment.
type HostInfo struct {
	OS, Shell, RipgrepPath string
	Language               string // UI locale
}

// Engine is safe for concurrent use. Each session runs at most one turn at
// a time; different sessions run independently.
type Engine struct {
	opts   Options
	log    *zap.Logger
	Store  *store.Store
	Bus    *eventbus.Bus[Event, *Event]
	Broker *dialogs.Broker
	// Rollback is the snapshots and restores of the workspace roots.
	Rollback *rollback.Manager
	// Sessions is the session catalogue: create, list, load, rename,
	// delete, a session's model and prompt facts.
	Sessions *sessions.Catalog
	// Tr localises a user-facing message: govibe.language, else the
	// editor's UI locale, read at each call. A value built in New rather
	// than a method, so the capabilities and humanerr are handed it as is.
	Tr func(msg string, args ...any) string

	mu       sync.Mutex
	settings config.Values
	apiKeys  map[string]string
	running  map[string]*turn // by session id
	// last is each session's most recent turn, kept after it ends so that
	// Wait never misses a turn that finished before it was called.
	last     map[string]*turn
	trackers map[string]*tools.FileTracker
	// recovery settles the runs a gone process left pending and keeps
	// the runs parked on a question (package recovery).
	recovery *recovery.Service
	notices  []string
	// questions asks ask_human's questions (on the Broker, or headless
	// at the terminal).
	questions *dialogs.Questions
	// TurnTools decides a turn's tools and their environment.
	TurnTools *turntools.Service
	// hooks is the hooks capability (wired in wiring.go).
	hooks *hooks.Manager
	// mcp is the MCP capability (mcp.go); it has its own lock.
	MCP *mcpclient.Servers
	// Profiles resolves the model profile each role, session, turn,
	// custom command and sub-agent uses (package profiles).
	Profiles *profiles.Resolver

	// The exported capabilities are the ones the server and govibe exec drive:
	// Meter the per-session accounting, Approvals the permission rules,
	// Compaction and Plans the compaction and plan state, Slash the
	// commands.
	Meter      *usage.Meter
	budget     *budgetgate.Gate
	reviewers  *reviewers.Reviewers
	Approvals  *approval.Approvals
	Compaction *compaction.Compactor
	Plans      *planrun.Runner
	Trust      *trust.Gate
	Skills     *skills.Manager
	Modes      *moderun.Modes
	memory     *memory.Reminder
	titles     titles.Namer
	// slash are the chat's slash commands, built-in and custom, and the
	// MCP prompts (slash.go).
	Slash *slashcmd.Commands

	// SessionCompaction is compaction as sessions use it: /compact, the
	// button, the compact tool, after a context-length error; Compaction
	// is its runner.
	SessionCompaction *sessioncompact.Service
	// TurnInput assembles what a user message carries besides its text
	// (context files, mentions) and keeps what the UI shows about it.
	TurnInput *turninput.Assembler

	baseCtx context.Context
	stop    context.CancelCauseFunc
	wg      sync.WaitGroup
}

// errServerStopping is the cause of the runs' cancellation when the engine
// closes, as opposed to the user's Stop: a run parked on a question then
// stays resumable instead of being finalised.
var errServerStopping = errors.New("GoVibe's server stopped")

// Notices are start-up messages for the user.
func (e *Engine) Notices() []string { return e.notices }

// Roots are the workspace roots.
func (e *Engine) Roots() []string { return e.opts.Roots }

// UpdateSettings applies a live settings change.
func (e *Engine) UpdateSettings(v config.Values, keys map[string]string) {
	e.mu.Lock()
	e.settings = v
	if keys != nil {
		e.apiKeys = keys
	}
	e.TurnTools.SettingsChanged(config.Typed(v))
	e.mu.Unlock()
	e.hooks.Reset() // the hooks setting may have changed
}

// Settings returns the current settings.
func (e *Engine) Settings() config.Values {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.settings
}

// Close cancels running turns, waits for them to persist their final
// state, and closes the store.
func (e *Engine) Close() error {
	e.stop(errServerStopping)
	e.wg.Wait()
	e.MCP.Close()
	e.Rollback.Close()
	return e.Store.Close()
}

func (e *Engine) tracker(sessionID string) *tools.FileTracker {
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.trackers[sessionID]
	if t == nil {
		t = tools.NewFileTracker()
		e.trackers[sessionID] = t
	}
	return t
}

// cfg is the typed view of the current settings (generated from the one
// settings schema in package config).
func (e *Engine) cfg() config.Settings { return config.Typed(e.Settings()) }
