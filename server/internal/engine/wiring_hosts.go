package engine

import (
	"context"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/engine/eventview"

	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/agent/slashcmd"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/gate/shellcheck"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/rpc/eventbus"
	"github.com/govibe/govibe/server/internal/storage/sessions"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/rollback"
)

// The rest of the host adapters New wires (wiring.go): each holds only
// the collaborators its capability uses.

// planHost is what the plan runner uses (planrun.Host).
type planHost struct {
	bus       *eventbus.Bus[Event, *Event]
	compactor *compaction.Compactor
	limits    func() scheduler.Limits
	running   func(sid string) bool
	review    func(ctx context.Context, sid, request string, plan any) (approval.PlanReview, error)
}

func (h planHost) PublishTodo(sid, turnID, tag string, p scheduler.Plan) {
	h.bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Todo, SubAgentTag: tag, Payload: eventview.Todo(p)})
}

func (h planHost) Running(sid string) bool { return h.running(sid) }

func (h planHost) ReviewPlan(ctx context.Context, sid, request string, plan any) (bool, string, error) {
	rev, err := h.review(ctx, sid, request, plan)
	return rev.Accepted, rev.Feedback, err
}

func (h planHost) Limits() scheduler.Limits { return h.limits() }

func (h planHost) BlockCompaction(sid, why string) func() { return h.compactor.Block(sid, why) }

// reviewHost is what the reviewers use (reviewers.Host).
type reviewHost struct {
	settings func() config.Settings
	bus      *eventbus.Bus[Event, *Event]
	tr       func(string, ...any) string
	// client resolves the review's profile; denied is the permission
	// rules' verdict on a command.
	client func(sid, model string) (llm.Client, string, error)
	denied func(ws shellcheck.Workspace, command string, an shellcheck.Analysis) bool
}

func (h reviewHost) Settings() config.Settings { return h.settings() }

func (h reviewHost) Client(sid, model string) (llm.Client, string, error) {
	return h.client(sid, model)
}

func (h reviewHost) PublishReview(t reviewers.Target, card *reviewers.Card) {
	h.bus.Publish(Event{SessionID: t.SessionID, TurnID: t.TurnID, MessageID: t.MessageID, Kind: kinds.Review, Payload: eventview.Review(*card)})
}

func (h reviewHost) Notice(t reviewers.Target, text string) {
	h.bus.Publish(Event{SessionID: t.SessionID, TurnID: t.TurnID, MessageID: t.MessageID, Kind: kinds.Notice, Text: text})
}

func (h reviewHost) Tr(msg string, args ...any) string { return h.tr(msg, args...) }

func (h reviewHost) Denied(ws shellcheck.Workspace, command string, an shellcheck.Analysis) bool {
	return h.denied(ws, command, an)
}

// rollbackHost is what the snapshots and restores use (rollback.Host).
type rollbackHost struct {
	settings    func() config.Settings
	bus         *eventbus.Bus[Event, *Event]
	tr          func(string, ...any) string
	cancelAll   func()
	forgetReads func(sid string)
}

func (h rollbackHost) Settings() config.Settings { return h.settings() }

func (h rollbackHost) CancelAll() { h.cancelAll() }

func (h rollbackHost) PublishNotice(sid string, m store.Message, text string) {
	h.bus.Publish(Event{SessionID: sid, Kind: kinds.Notice, MessageID: m.ID, MessageSeq: m.Seq, Text: text})
}

func (h rollbackHost) PublishTurnSnapshots(sid, turnID string, refs []rollback.TurnSnapshot) {
	h.bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Snapshots, MessageID: turnID, Payload: eventview.Snapshots(refs)})
}

func (h rollbackHost) PublishTurnRolledBack(sid, turnID string) {
	h.bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Snapshots, MessageID: turnID, Status: "rolledBack"})
}

func (h rollbackHost) ForgetReads(sid string) { h.forgetReads(sid) }

func (h rollbackHost) Tr(msg string, args ...any) string { return h.tr(msg, args...) }

// modesHost is what the working modes use (moderun.Host).
type modesHost struct {
	bus         *eventbus.Bus[Event, *Event]
	store       *store.Store
	settings    func() config.Settings
	tr          func(string, ...any) string
	running     func(sid string) string
	reconciling func(sid string) bool
	send        func(context.Context, SendParams) (string, string, error)
}

func (h modesHost) Publish(sid, turnID string, p moderun.Panel) {
	h.bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: kinds.Mode, Payload: eventview.Mode(p)})
}

func (h modesHost) SessionExists(ctx context.Context, sid string) error {
	_, err := h.store.GetSession(ctx, sid)
	return err
}

func (h modesHost) CheckIdle(sid string) error {
	if h.running(sid) != "" {
		return ErrBusy
	}
	return nil
}

func (h modesHost) Reconciling(sid string) bool { return h.reconciling(sid) }

func (h modesHost) StartReconcile(ctx context.Context, sid, text string) (string, string, error) {
	return h.send(ctx, SendParams{SessionID: sid, Text: text, reconcile: true, origin: store.OriginControl})
}

func (h modesHost) Settings() config.Settings         { return h.settings() }
func (h modesHost) Tr(msg string, args ...any) string { return h.tr(msg, args...) }

// slashHost is what the slash commands use (slashcmd.Host).
type slashHost struct {
	bus             *eventbus.Bus[Event, *Event]
	tr              func(string, ...any) string
	snaps           *rollback.Manager
	meter           *usage.Meter
	contextUse      func(context.Context, string) usage.Context
	createSession   func(context.Context, string) (sessions.Summary, error)
	listSessions    func(context.Context, int) ([]sessions.Summary, error)
	running         func(sid string) string
	startCompaction func(ctx context.Context, sid, trigger string) (string, error)
	sessionModel    func(ctx context.Context, sid string) string
}

func (h slashHost) CreateSession(ctx context.Context) (string, error) {
	s, err := h.createSession(ctx, "")
	return s.ID, err
}

func (h slashHost) RecentSessions(ctx context.Context, limit int) ([]store.Session, error) {
	list, err := h.listSessions(ctx, limit)
	out := make([]store.Session, len(list))
	for i, s := range list {
		out[i] = s.Session
	}
	return out, err
}

func (h slashHost) Idle(sid string) error {
	if h.running(sid) != "" {
		return ErrBusy
	}
	return nil
}

func (h slashHost) PublishNotice(sid, job string, m store.Message, text string) {
	h.bus.Publish(Event{SessionID: sid, TurnID: job, Kind: kinds.Notice, MessageID: m.ID, MessageSeq: m.Seq, Text: text})
}

func (h slashHost) PublishFinished(ctx context.Context, sid, job string, withContext bool) {
	ev := Event{SessionID: sid, TurnID: job, Kind: kinds.TurnFinished, SubAgentTag: TagFree, Status: "done"}
	if withContext {
		ev.Payload = eventview.Context(h.contextUse(ctx, sid))
	}
	h.bus.Publish(ev)
}

func (h slashHost) StartCompaction(ctx context.Context, sid string) (string, error) {
	return h.startCompaction(ctx, sid, compaction.TriggerCommand)
}

func (h slashHost) SessionModel(ctx context.Context, sid string) string {
	return h.sessionModel(ctx, sid)
}

func (h slashHost) Snapshots(sid string) ([]slashcmd.Snapshot, error) {
	list, _, err := h.snaps.Snapshots(sid)
	out := make([]slashcmd.Snapshot, len(list))
	for i, s := range list {
		out[i] = slashcmd.Snapshot{ID: s.ID, Root: s.Root, Reason: s.Reason, Turn: s.Turn}
	}
	return out, err
}

func (h slashHost) Restore(ctx context.Context, id string) error {
	_, err := h.snaps.Restore(ctx, id)
	return err
}

func (h slashHost) Usage(ctx context.Context, sid string) usage.Session { return h.meter.Of(ctx, sid) }

func (h slashHost) Tr(msg string, args ...any) string { return h.tr(msg, args...) }
