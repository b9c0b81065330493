package engine

import (
	"context"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/compact/compaction"
	"github.com/govibe/govibe/server/internal/slashcmd"
	"github.com/govibe/govibe/server/internal/store"
	"github.com/govibe/govibe/server/internal/usage"
)

// The slash commands (built-in, custom, MCP prompts) and the limits a
// custom command puts on its turn are package slashcmd; the engine is its
// slashcmd.Host. Send runs the command a message invokes and starts the
// turn it turns into.

func (e *Engine) newSlash() *slashcmd.Commands {
	return slashcmd.New(slashHost{e}, e.Store, slashcmd.Options{Home: e.home(), Roots: e.opts.Roots,
		Headless: e.opts.Headless, Approve: e.opts.Approve, Trusted: e.trust.Trusted,
		Skills: e.skills, Hooks: e.hooks, Reconcile: e.modes,
		MCP:  func() slashcmd.Prompts { return e.mcp.Manager() },
		Base: e.baseCtx, Notice: e.notice, Log: e.log.Named("commands")})
}

// Commands lists every slash command (custom ones replacing built-ins of
// the same name), sorted, for autocomplete and /help.
func (e *Engine) Commands() []slashcmd.Info { return e.slash.List() }

// slashHost adapts the engine to slashcmd.Host.
type slashHost struct{ e *Engine }

func (h slashHost) CreateSession(ctx context.Context) (string, error) {
	s, err := h.e.CreateSession(ctx, "")
	return s.ID, err
}

func (h slashHost) RecentSessions(ctx context.Context, limit int) ([]store.Session, error) {
	list, err := h.e.ListSessions(ctx, limit)
	out := make([]store.Session, len(list))
	for i, s := range list {
		out[i] = s.Session
	}
	return out, err
}

func (h slashHost) Idle(sid string) error {
	if h.e.Running(sid) != "" {
		return ErrBusy
	}
	return nil
}

func (h slashHost) PublishNotice(sid, job string, m store.Message, text string) {
	h.e.Bus.Publish(Event{SessionID: sid, TurnID: job, Kind: kinds.Notice, MessageID: m.ID, MessageSeq: m.Seq, Text: text})
}

func (h slashHost) PublishFinished(ctx context.Context, sid, job string, withContext bool) {
	ev := Event{SessionID: sid, TurnID: job, Kind: kinds.TurnFinished, SubAgentTag: TagFree, Status: "done"}
	if withContext {
		ev.Payload = ContextPayload(h.e.ContextUse(ctx, sid))
	}
	h.e.Bus.Publish(ev)
}

func (h slashHost) StartCompaction(ctx context.Context, sid string) (string, error) {
	return h.e.StartCompaction(ctx, sid, compaction.TriggerCommand)
}

func (h slashHost) SessionModel(ctx context.Context, sid string) string {
	return h.e.sessionProfile(ctx, sid).Model
}

func (h slashHost) Snapshots(sid string) ([]slashcmd.Snapshot, error) {
	list, _, err := h.e.snaps.Snapshots(sid)
	out := make([]slashcmd.Snapshot, len(list))
	for i, s := range list {
		out[i] = slashcmd.Snapshot{ID: s.ID, Root: s.Root, Reason: s.Reason, Turn: s.Turn}
	}
	return out, err
}

func (h slashHost) Restore(ctx context.Context, id string) error {
	_, err := h.e.snaps.Restore(ctx, id)
	return err
}

func (h slashHost) Usage(ctx context.Context, sid string) usage.Session {
	return h.e.SessionUsageOf(ctx, sid)
}

func (h slashHost) Tr(msg string, args ...any) string { return h.e.tr(msg, args...) }
