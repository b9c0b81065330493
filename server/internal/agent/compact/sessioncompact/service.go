package sessioncompact

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Store is the store access the service and the runner need; *store.Store
// implements it.
type Store interface {
	compaction.Tracks
	GetSession(ctx context.Context, id string) (store.Session, error)
	// CallDecisions are the session's answered confirmations, the newest
	// limit, and how many older ones were left out.
	CallDecisions(ctx context.Context, sid string, limit int) ([]store.Confirmation, int, error)
}

// Meter is the accounting the service reports to; *usage.Meter
// implements it.
type Meter interface {
	Of(ctx context.Context, sid string) usage.Session
	FinishTurn(ctx context.Context, sid string, turn int, before usage.Session) usage.Turn
	SetContext(sid string, tokens int64, source string)
	Compacted(sid string)
}

// Asker puts a question to the user and waits for the answer (the
// engine's confirmation Broker).
type Asker interface {
	Ask(ctx context.Context, c approval.Confirm) (approval.Answer, error)
}

// Events are the chat events the service publishes, all in the free
// phase: the engine turns them into its Bus events.
type Events interface {
	// Notice is a line in the chat (status "info" or "warn").
	Notice(sid, turnID, status, text string)
	// Compacted is the compaction event: its status ("done", "failed"),
	// text and the attempt with the context use after it.
	Compacted(sid, turnID, status, text string, r Result)
	// Finished ends /compact as a turn ends: its usage and context.
	Finished(sid, job, status string, u usage.Turn, use usage.Context)
}

// Deps are the service's collaborators. The functions are what the
// engine's turn runner answers.
type Deps struct {
	Store    Store
	Meter    Meter
	Asker    Asker
	Events   Events
	Settings func() config.Settings
	Tr       func(format string, args ...any) string
	Log      *zap.Logger
	// Headless never asks whether to continue: nobody could answer.
	Headless bool
	// Profile is the model the session's next request goes to: the
	// running turn's custom command model, else the session's /model or
	// picker choice.
	Profile func(ctx context.Context, sid string) llm.Profile
	// Summariser is the compaction role's model, when one is set.
	Summariser func() (llm.Profile, bool)
	// Client makes a metered (and budgeted) client for a model.
	Client func(llm.Profile) (llm.Client, error)
	// FreeRequest is what the session's free run sends before its track:
	// the system prompt and the tools it requests; text is the text
	// tool-call protocol, whose requests carry no tool definitions.
	FreeRequest func(ctx context.Context, sid string) (system string, ts []tools.Tool, text bool)
	// PreCompact runs the PreCompact hooks before every attempt.
	PreCompact func(ctx context.Context, sid, turnID string, byUser bool)
	// ContextUse is the session's context in use, as the header shows it.
	ContextUse func(ctx context.Context, sid string) usage.Context
	// Explain words a failed compaction's error for a person.
	Explain func(error) string
	// Base outlives requests (the engine's context); Go runs a background
	// job the engine waits for when it closes.
	Base context.Context
	Go   func(func())
}

// Result is one attempt with the context use after it.
type Result struct {
	compaction.Info
	Context usage.Context
}

// Service is compaction as the engine's sessions use it.
type Service struct {
	d      Deps
	runner *compaction.Compactor
}

// New builds the service and its compaction runner.
func New(d Deps) *Service {
	if d.Log == nil {
		d.Log = zap.NewNop()
	}
	s := &Service{d: d}
	s.runner = compaction.New(host{d: &s.d}, d.Store, d.Log)
	return s
}

// Runner is the compaction runner (automatic and scoped compaction, the
// compact tool, the records).
func (s *Service) Runner() *compaction.Compactor { return s.runner }

// Host is what the runner asks of the session (compaction.Host).
func (s *Service) Host() compaction.Host { return host{d: &s.d} }

// Policy is the compaction policy of the model the session's next request
// goes to: its window is the one the context bar measures against.
func (s *Service) Policy(ctx context.Context, sid string) compact.Policy {
	return host{d: &s.d}.Policy(ctx, sid)
}

// Prefix is what a free-phase request of the session starts with: the
// system prompt and tool definitions, byte for byte as the run sends them.
func (s *Service) Prefix(ctx context.Context, sid string) (string, []llm.ToolDef) {
	return host{d: &s.d}.Prefix(ctx, sid)
}

// FreeTools is the free phase's tool list, compact included.
func (s *Service) FreeTools(sid, turnID string) []tools.Tool {
	return append(tools.Builtin(), s.runner.Tool(sid, turnID, true))
}

// Compact summarises a session's earlier messages now and waits for the
// result (the compact tool). A failed summary is not an error: it is
// reported in the info (Failed) after the mechanical fallback ran.
func (s *Service) Compact(ctx context.Context, sid, turnID, trigger string) (Result, error) {
	info, err := s.runner.Compact(ctx, sid, turnID, trigger)
	if err != nil {
		return Result{Info: info}, err
	}
	return Result{Info: info, Context: s.d.ContextUse(ctx, sid)}, nil
}

// Start runs Compact in the background (the button and /compact) and
// returns at once; the outcome arrives as a compaction event. A turn may
// run meanwhile: what it appends is kept.
func (s *Service) Start(ctx context.Context, sid, trigger string) (jobID string, err error) {
	if _, err := s.d.Store.GetSession(ctx, sid); err != nil {
		return "", fmt.Errorf("session %s: %w", sid, err)
	}
	release, err := s.runner.Reserve(ctx, sid)
	if err != nil {
		return "", err
	}
	job := uuid.NewString()
	s.d.Go(func() {
		defer release()
		s.run(sid, job, trigger)
	})
	return job, nil
}

// run is Start's job; the caller holds the session's slot.
func (s *Service) run(sid, job, trigger string) {
	d := s.d
	before := d.Meter.Of(d.Base, sid)
	info, err := s.runner.CompactReserved(d.Base, sid, job, trigger)
	status := "done"
	switch {
	case err != nil:
		status = "error"
		text := d.Tr("Could not summarise earlier messages: %s", d.Explain(err))
		if errors.Is(err, compaction.ErrNothingToCompact) {
			status, text = "done", d.Tr("Nothing to summarise yet: the conversation is still short.")
		}
		d.Events.Notice(sid, job, "warn", text)
	case info.Failed:
		status = "error"
	}
	if trigger == compaction.TriggerCommand {
		fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// The command's own requests are its usage, as a turn's are.
		tu := d.Meter.FinishTurn(fctx, sid, 0, before)
		d.Events.Finished(sid, job, status, tu, d.ContextUse(fctx, sid))
	}
}
