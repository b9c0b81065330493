package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/govibe/govibe/protocol/kinds"

	"go.uber.org/zap"

	builtinskills "github.com/govibe/govibe/skills"

	"github.com/govibe/govibe/server/internal/agent/compact/sessioncompact"
	"github.com/govibe/govibe/server/internal/agent/dialogs"
	"github.com/govibe/govibe/server/internal/agent/humanerr"
	"github.com/govibe/govibe/server/internal/agent/memory"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/agent/scheduler/planrun"
	"github.com/govibe/govibe/server/internal/agent/skills"
	"github.com/govibe/govibe/server/internal/agent/slashcmd"
	"github.com/govibe/govibe/server/internal/agent/titles"
	"github.com/govibe/govibe/server/internal/agent/turninput"
	"github.com/govibe/govibe/server/internal/engine/eventview"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/gate/shellcheck"
	"github.com/govibe/govibe/server/internal/gate/trust"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/host/i18n"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/profiles"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/model/usage/budgetgate"
	"github.com/govibe/govibe/server/internal/rpc/eventbus"
	"github.com/govibe/govibe/server/internal/storage/sessions"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
	"github.com/govibe/govibe/server/internal/workspace/rollback"
	"github.com/govibe/govibe/server/internal/workspace/shell"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// The composition root: New builds every capability and hands each one a
// host adapter holding only the collaborators it uses (the Bus, the
// translator, the settings, and named functions for what the turn runner
// answers), never the *Engine itself.

// New opens the state directory and returns a ready engine.
func New(o Options) (*Engine, error) {
	if len(o.Roots) == 0 {
		return nil, errors.New("no workspace folder is open")
	}
	for i, r := range o.Roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, err
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("workspace folder %s is not a directory", abs)
		}
		o.Roots[i] = abs
	}
	if o.StateDir == "" {
		return nil, errors.New("no storage directory")
	}
	if err := os.MkdirAll(o.StateDir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the storage directory: %w", err)
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	if o.NewClient == nil {
		o.NewClient = func(p llm.Profile, lo llm.Options) (llm.Client, error) { return llm.New(p, lo) }
	}
	if o.OnConfirm == nil {
		o.OnConfirm = func(approval.Confirm) {}
	}
	var eng *Engine
	// A question to the user is what Notification hooks are told about.
	onConfirm := o.OnConfirm
	o.OnConfirm = func(c approval.Confirm) {
		onConfirm(c)
		if eng != nil {
			go eng.hooks.Fire(eng.baseCtx, c.TurnID, hooks.Input{SessionID: c.SessionID, HookEventName: hooks.Notification,
				Message: "GoVibe needs your confirmation (" + c.Kind + ")"})
		}
	}
	// A notice for no session is logged, then told to the client.
	onNotice := o.OnNotice
	o.OnNotice = func(level, msg, action string) {
		o.Logger.Info("notice", zap.String("level", level), zap.String("message", msg), zap.String("action", action))
		if onNotice != nil {
			onNotice(level, msg, action)
		}
	}
	if o.OnConfirmClosed == nil {
		o.OnConfirmClosed = func(string, string) {}
	}
	if o.OnSession == nil {
		o.OnSession = func(sessions.Summary) {}
	}
	st, err := store.Open(filepath.Join(o.StateDir, "sessions.db"), store.Options{})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	e := &Engine{
		opts: o, log: o.Logger, Store: st, Bus: eventbus.New[Event](),
		settings: o.Settings, apiKeys: o.APIKeys,
		running: map[string]*turn{}, last: map[string]*turn{}, trackers: map[string]*tools.FileTracker{},
		baseCtx: ctx, stop: cancel,
	}
	e.Tr = func(msg string, args ...any) string {
		return i18n.T(i18n.Pick(e.cfg().Language, o.HostInfo.Language), msg, args...)
	}
	if e.settings == nil {
		e.settings = config.Values{}
	}
	if rec := st.Recovered(); rec != nil {
		e.notices = append(e.notices, rec.Error())
	}
	eng = e
	e.wire()
	// Before recovery: a merged session's unfinished run is recovered
	// like any other whose process is gone.
	e.notices = append(e.notices, sessions.MergeLegacy(ctx, sessions.LegacyDeps{Store: st, Snapshots: e.Rollback, Skills: e.Skills, Tr: e.Tr, Log: e.log},
		o.StateDir, o.LegacyStateDirs)...)
	if err := e.recovery.Recover(ctx); err != nil {
		e.log.Warn("recovering interrupted runs", zap.Error(err))
	}
	// What trust skipped, and malformed project config, is said once at
	// start (and again after each trust change).
	e.Trust.Report()
	return e, nil
}

// wire builds the capabilities, in the order they depend on each other.
func (e *Engine) wire() {
	o, st, log, bus, tr, cfg := e.opts, e.Store, e.log, e.Bus, e.Tr, e.cfg
	home := o.Home
	notice := func(level, msg string) { o.OnNotice(level, msg, "") }
	e.Profiles = profiles.New(profiles.Options{State: st, Endpoints: st, Tr: tr, Log: log,
		Settings: func() (config.Values, map[string]string) {
			e.mu.Lock()
			defer e.mu.Unlock()
			return e.settings, e.apiKeys
		},
		Notice: func(sid, text string) {
			bus.Publish(Event{SessionID: sid, Kind: kinds.Notice, Status: "info", Text: text})
		}})
	e.Broker = dialogs.NewBroker(st, dialogs.Options{OnRequested: o.OnConfirm, OnClosed: o.OnConfirmClosed, Stopping: errServerStopping})
	e.Meter = usage.New(st, log.Named("usage"))
	e.reviewers = reviewers.New(reviewHost{settings: cfg, bus: bus, tr: tr,
		client: func(sid, model string) (llm.Client, string, error) {
			p := e.Profiles.Reviewer(context.Background(), sid, model)
			c, err := e.client(p)
			return c, p.Model, err
		},
		denied: func(ws shellcheck.Workspace, command string, an shellcheck.Analysis) bool {
			return e.Approvals.Denies(ws, command, an)
		}}, st, reviewers.Options{Roots: o.Roots, OS: o.HostInfo.OS,
		Shell: firstNonEmpty(o.HostInfo.Shell, shell.Default())}, log.Named("review"))
	e.Approvals = approval.New(approvalHost{settings: cfg, broker: e.Broker, bus: bus, tr: tr}, st, e.reviewers,
		approval.Options{Roots: o.Roots, Headless: o.Headless, Approve: o.Approve, AskTerminal: o.AskTerminal,
			SettingOrigin: o.SettingOrigin, Editor: o.Editor, AllowRules: o.AllowRules, Log: log.Named("approval")})
	e.questions = dialogs.NewQuestions(e.Broker, st, dialogs.QuestionOptions{Headless: o.Headless, Terminal: o.AskTerminal,
		Timeout: e.Approvals.QuestionTimeout, Base: e.baseCtx, Log: log})
	e.budget = budgetgate.New(budgetgate.Deps{Settings: cfg, Meter: e.Meter, Asker: e.Broker, Headless: o.Headless, Tr: tr, Log: log,
		LiveTurn: func(sid string) string { return e.TurnTools.Live(sid).ID }})
	e.SessionCompaction = newSessionCompaction(e)
	e.Compaction = e.SessionCompaction.Runner()
	e.Plans = planrun.New(planHost{bus: bus, compactor: e.Compaction, limits: e.schedLimits,
		running: func(sid string) bool { return e.Running(sid) != "" },
		review: func(ctx context.Context, sid, request string, plan any) (approval.PlanReview, error) {
			return e.Approvals.ReviewPlan(ctx, e.turnTarget(sid), request, plan)
		}}, st, log.Named("plan"))
	e.Rollback = rollback.New(rollbackHost{settings: cfg, bus: bus, tr: tr, cancelAll: e.cancelAll,
		forgetReads: func(sid string) { e.tracker(sid).ResetTurn() }}, st,
		rollback.Options{StateDir: o.StateDir, Roots: o.Roots, OnSnapshot: o.OnSnapshot, Log: log})
	e.Trust = trust.New(trust.Options{Roots: o.Roots, Trusted: o.Trusted,
		// Workspace trust gates the skills, custom commands, hooks and MCP
		// servers: dropped on a change, loaded again under the new trust.
		Reset: func() {
			e.Skills.Reset()
			e.Slash.Reset()
			e.hooks.Reset()
			e.MCP.Reset()
		},
		Report: func() {
			e.Skills.Report()
			e.Slash.Report() // loading the custom commands reports their problems and conflicts
		},
		// What trust let in loads now instead of at first use: the hooks
		// (their problems are reported now) and the MCP servers, which
		// start so the status view shows them connected.
		Load: func() {
			e.hooks.Runner()
			if e.Trust.Trusted() && e.baseCtx.Err() == nil {
				e.MCP.Manager().Start(e.baseCtx)
			}
		},
		Notice: o.OnNotice, Withdraw: o.OnNoticeWithdrawn, Tr: tr, Log: log})
	trusted := e.Trust.Trusted
	e.TurnInput = newTurnInput(e)
	e.Skills = skills.NewManager(skills.ManagerOptions{Home: home, Roots: o.Roots, Builtin: builtinskills.FS,
		StateDir: o.StateDir, Trusted: trusted, State: st, Notice: notice, Tr: tr, Log: log})
	e.hooks = hooks.NewManager(hooks.ManagerOptions{Home: home, Roots: o.Roots, Trusted: trusted,
		UserSetting: func() json.RawMessage { return turninput.UserHooks(e.Settings()) }, State: st,
		Publish: func(sid, turnID string, run hooks.Run) {
			bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Hook, Text: run.Command, Status: run.Result, Payload: eventview.Hook(run)})
		},
		Transcript: e.TurnInput.Transcript, PermissionMode: e.TurnInput.PermissionMode,
		Notice: notice, Tr: tr, Log: log})
	e.Sessions = sessions.New(sessions.Deps{Store: st, Turns: newSessionsTurns(e), Bus: bus, Meter: e.Meter,
		Dialogs: e.Broker, Plans: e.Plans, Hooks: e.hooks, Snapshots: e.Rollback},
		sessions.Options{Roots: o.Roots, StateDir: o.StateDir, OnSession: o.OnSession})
	e.MCP = mcpclient.NewServers(mcpclient.ServersOptions{Home: home, Roots: o.Roots, StateDir: o.StateDir, Trusted: trusted,
		Env:           func() []string { return shell.ScrubEnv(os.Environ()) },
		ContextWindow: func() int { return e.Profiles.Active().ContextWindow },
		DisplayPath:   e.Approvals.DisplayPath, Notice: notice, Tr: tr, Log: log})
	e.Modes = moderun.New(newModesHost(e), st, o.Roots)
	e.memory = memory.NewReminder(st, o.Roots, log.Named("memory"))
	e.titles = titles.Namer{Base: e.baseCtx, Log: log, SetTitle: st.SetAutoTitle,
		// A title role of its own asks for model titles (configuring one is asking for it).
		ByModel: func() bool { return e.cfg().Titles.Model || e.Profiles.HasRole(profiles.RoleTitle) },
		Client: func(sid string) (llm.Client, error) {
			return e.client(e.Profiles.ForRole(context.Background(), sid, profiles.RoleTitle))
		},
		Listed: func(sid string) bool { return e.Meter.Root(sid) == sid },
		Named:  func(ctx context.Context, sid string) { e.Sessions.Changed(ctx, sid) },
		Go: func(f func()) {
			e.wg.Add(1)
			go func() { defer e.wg.Done(); f() }()
		}}
	e.Slash = slashcmd.New(slashHost{bus: bus, tr: tr, snaps: e.Rollback, meter: e.Meter, contextUse: e.ContextUse,
		createSession: e.Sessions.Create, listSessions: e.Sessions.List,
		running:         e.Running,
		startCompaction: e.SessionCompaction.Start,
		sessionModel:    func(ctx context.Context, sid string) string { return e.Profiles.Session(ctx, sid).Model }}, st,
		slashcmd.Options{Home: home, Roots: o.Roots, Headless: o.Headless, Approve: o.Approve, Trusted: trusted,
			Skills: e.Skills, Hooks: e.hooks, Reconcile: e.Modes,
			MCP:  func() slashcmd.Prompts { return e.MCP.Manager() },
			Base: e.baseCtx, Notice: notice, Log: log.Named("commands")})
	e.recovery = newRecovery(e)
	e.TurnTools = newTurnTools(e)
}

// newSessionCompaction is session compaction with its collaborators.
func newSessionCompaction(e *Engine) *sessioncompact.Service {
	return sessioncompact.New(sessioncompact.Deps{Store: e.Store, Meter: e.Meter, Asker: e.Broker, Events: compactionEvents{bus: e.Bus},
		Settings: e.cfg, Tr: e.Tr, Log: e.log.Named("compaction"), Headless: e.opts.Headless,
		// The policy follows the model the session's next request goes
		// to: the running turn's custom command model, else its /model or
		// picker choice, so a switch to a smaller window compacts against
		// that window.
		Profile: func(ctx context.Context, sid string) llm.Profile {
			return e.Profiles.Turn(ctx, sid, e.TurnTools.Live(sid).Limits.Model).Profile
		},
		Summariser: func() (llm.Profile, bool) {
			return e.Profiles.Role(profiles.RoleCompaction).Profile, e.Profiles.HasRole(profiles.RoleCompaction)
		},
		Client: func(p llm.Profile) (llm.Client, error) { return e.client(Profile{Profile: p}) },
		// What the free run sends: the text tool-call protocol sends no
		// tool definitions.
		FreeRequest: func(ctx context.Context, sid string) (string, []tools.Tool, bool) {
			return e.TurnTools.FreeRequest(ctx, sid)
		},
		PreCompact: func(ctx context.Context, sid, turnID string, byUser bool) {
			e.hooks.PreCompact(ctx, sid, turnID, byUser)
		},
		ContextUse: e.ContextUse,
		Explain:    func(err error) string { return humanerr.Explain(e.Tr, err, e.Profiles.Active().BaseURL).Message },
		Base:       e.baseCtx,
		Go: func(f func()) {
			e.wg.Add(1)
			go func() { defer e.wg.Done(); f() }()
		}})
}

// The skill tools get the skills capability as their tools.SkillHost.
var _ tools.SkillHost = (*skills.Manager)(nil)

// newTurnInput is the assembly of a user message's input, with its
// collaborators.
func newTurnInput(e *Engine) *turninput.Assembler {
	o := e.opts
	return turninput.New(turninput.Deps{Store: e.Store, Roots: o.Roots, StateDir: o.StateDir, Settings: e.cfg, Tr: e.Tr, Log: e.log,
		Touched: func(sid string) []string { return e.tracker(sid).Paths() },
		Warn: func(sid, text string) {
			e.Bus.Publish(Event{SessionID: sid, Kind: kinds.Notice, Status: "warn", Text: text})
		},
		ReadResource: func(ctx context.Context, server, uri string) (string, error) {
			return e.MCP.Manager().ReadResource(ctx, server, uri)
		},
		ClosedNote: func(sid, turnID string) string { return e.Broker.ClosedNote(sid, turnID) },
		Terminal:   o.Terminal, Headless: o.Headless, Approve: o.Approve,
		// A running turn answers from its view; no store read per hook.
		Mode: func(ctx context.Context, sid string) modes.Mode {
			e.mu.Lock()
			t := e.running[sid]
			e.mu.Unlock()
			if t != nil {
				return t.mode.Mode()
			}
			return e.Modes.Mode(ctx, sid)
		}})
}

// newModesHost is the working modes' host (moderun.Host).
func newModesHost(e *Engine) modesHost {
	return modesHost{bus: e.Bus, store: e.Store, settings: e.cfg, tr: e.Tr, running: e.Running,
		reconciling: func(sid string) bool {
			e.mu.Lock()
			defer e.mu.Unlock()
			t := e.running[sid]
			return t != nil && t.reconcile
		},
		send: e.Send}
}

// cancelAll stops every running turn (a restore of the workspace).
func (e *Engine) cancelAll() {
	e.mu.Lock()
	var ids []string
	for sid := range e.running {
		ids = append(ids, sid)
	}
	e.mu.Unlock()
	for _, sid := range ids {
		e.Cancel(sid)
	}
}

// approvalHost is what the approval flow uses (approval.Host).
type approvalHost struct {
	settings func() config.Settings
	broker   *dialogs.Broker
	bus      *eventbus.Bus[Event, *Event]
	tr       func(string, ...any) string
}

func (h approvalHost) Settings() config.Settings { return h.settings() }

// Ask waits for the person; the wait is not the call's run time.
func (h approvalHost) Ask(ctx context.Context, c approval.Confirm) (approval.Answer, error) {
	start := time.Now()
	defer func() { tools.AddWait(ctx, time.Since(start)) }()
	return h.broker.Ask(ctx, c)
}

func (h approvalHost) Tr(msg string, args ...any) string { return h.tr(msg, args...) }

func (h approvalHost) Notice(sid, turnID, level, text string) {
	h.bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Notice, Status: level, Text: text})
}
