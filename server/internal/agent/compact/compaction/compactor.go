package compaction

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// Triggers.
const (
	TriggerAuto    = "auto"
	TriggerCommand = "command" // the user typed /compact
	TriggerTool    = "tool"    // the model called compact
	TriggerButton  = "button"  // chat/compact from the UI
)

var (
	// ErrCompacting is returned when a session already runs a compaction.
	ErrCompacting = errors.New("this session is already summarising its earlier messages")
	// ErrStopped ends a run whose user chose to stop when asked whether
	// to continue after an automatic compaction (compact.askToContinue).
	ErrStopped = fmt.Errorf("%w after the conversation was compacted", agent.ErrStopRun)
	// ErrNothingToCompact is returned when the whole track is within keepTokens.
	ErrNothingToCompact = errors.New("nothing to summarise yet: the conversation still fits in govibe.compact.keepTokens")
)

// Record is the persisted trace of one attempt.
type Record = sessionstate.CompactionRecord

// Info describes one compaction attempt, successful or not.
type Info struct {
	Trigger string
	// Failed attempts fell back to mechanical truncation; Reason says why.
	Failed bool
	Reason string
	// Summary is the <state_snapshot> that replaced Messages messages.
	Summary  string
	Messages int
	// BeforeTokens and AfterTokens estimate the replaced range and its
	// replacement; SavedTokens is their difference.
	BeforeTokens, AfterTokens, SavedTokens int
	// Truncated says the compaction request was cut down mechanically to
	// fit the window before it was sent.
	Truncated bool
	// Shortened is how many tokens a dominant tool result lost before the
	// summary could be made (it alone was larger than the range to cut).
	Shortened int
	// Kept says what was re-sent word for word after the summary (the
	// user's request, the todo list, the user's decisions); KeptText is
	// that block as the model reads it.
	Kept     compact.KeptCounts
	KeptText string
	// Notice is the divider's text; MessageID/MessageSeq name the UI-track
	// event message holding it.
	Notice     string
	MessageID  string
	MessageSeq int64
}

// Host is what compaction needs from the engine.
type Host interface {
	// Policy is the compaction policy of the model the session's next
	// request uses (its window and output cap): the running turn's custom
	// command model, else the session's /model choice, else govibe.model;
	// sid "" is the active profile's. It decides when to compact.
	Policy(ctx context.Context, sid string) compact.Policy
	// Prefix is what a free-phase request of the session starts with: the
	// system prompt and tool definitions, byte for byte as the run sends
	// them, so the summary request shares the provider's prefix cache.
	Prefix(ctx context.Context, sid string) (system string, defs []llm.ToolDef)
	// Client makes the session's summary request (metered like every
	// request): the compaction role's profile, else the one Policy follows.
	// The policy returned is that model's: the summary request must fit
	// its window, which may be smaller than the session model's.
	Client(ctx context.Context, sid string) (llm.Client, compact.Policy, error)
	// ContextEstimated tells the accounting that the session's context is
	// now this local estimate, until the next request reports the real one.
	ContextEstimated(sid string, tokens int64)
	// BeforeCompact runs just before every attempt, whatever its trigger
	// (PreCompact hooks); it cannot stop it.
	BeforeCompact(ctx context.Context, sid, turnID, trigger string)
	// Compacted announces an attempt that changed the track (or failed
	// and fell back), after it is persisted.
	Compacted(ctx context.Context, sid, turnID string, info Info)
	// Decisions are the user's answers in the session (approvals and
	// rejections with their reasons, replies to ask_human), oldest
	// first: the newest limit, and how many older ones were left out.
	// Compaction re-sends them word for word after its summary.
	Decisions(ctx context.Context, sid string, limit int) (ds []compact.Decision, omitted int)
	// ContinueAfter runs after an automatic compaction changed the track,
	// before the request that follows: it may ask the user whether to go
	// on (compact.askToContinue) and returns ErrStopped, or the ask's
	// error, when the run must end there.
	ContinueAfter(ctx context.Context, sid, turnID string, info Info) error
	// Tr words the notice a person reads of an attempt (the divider) in
	// their language.
	Tr(format string, args ...any) string
}

// Tracks is the store access compaction needs: the model track, the UI
// track's divider, and session state. *store.Store implements it.
type Tracks interface {
	sessionstate.KV
	LLMMessages(ctx context.Context, sid string) ([]llm.Message, error)
	// LLMEntries and GetMessage find the person's own words behind a
	// request the summary replaces.
	LLMEntries(ctx context.Context, sid string) ([]store.LLMEntry, error)
	GetMessage(ctx context.Context, id string) (store.Message, error)
	ReplaceLLMMessages(ctx context.Context, sid string, from, to int, msgs []llm.Message) error
	AppendMessage(ctx context.Context, sid string, m store.NewMessage) (store.Message, error)
}

// Compactor compacts the sessions of one engine. Safe for concurrent use:
// each session has one compaction slot (slots), and the store serialises
// the writes.
type Compactor struct {
	host   Host
	tracks Tracks
	log    *zap.Logger
	slots  slots
}

// New returns a compactor.
func New(h Host, t Tracks, log *zap.Logger) *Compactor {
	if log == nil {
		log = zap.NewNop()
	}
	return &Compactor{host: h, tracks: t, log: log, slots: newSlots()}
}

// Policy is the active compaction policy.
func (c *Compactor) Policy() compact.Policy { return c.host.Policy(context.Background(), "") }

// Prefix is the request prefix compaction measures and reuses.
func (c *Compactor) Prefix(ctx context.Context, sid string) (string, []llm.ToolDef) {
	return c.host.Prefix(ctx, sid)
}

// Records lists a session's compaction attempts, oldest first.
func (c *Compactor) Records(ctx context.Context, sid string) []Record {
	return sessionstate.Lookup(ctx, c.tracks, sid, sessionstate.Compactions)
}

// RetryAbove is the estimate automatic compaction waits for after a
// failed attempt (0 when none failed since the last success).
func (c *Compactor) RetryAbove(ctx context.Context, sid string) int {
	return sessionstate.Lookup(ctx, c.tracks, sid, sessionstate.CompactGuard).RetryAbove
}

// Block refuses global compaction of a session (automatic, the command,
// the button and the tool) until the returned func is called. The plan
// runner holds it while executor and evaluator agents run: global
// compaction is a free-phase operation.
func (c *Compactor) Block(sid, why string) (unblock func()) { return c.slots.block(sid, why) }
