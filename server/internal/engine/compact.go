package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/compact"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/scheduler"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/store"
	"github.com/govibe/govibe/server/internal/tools"
)

// Compaction triggers.
const (
	TriggerAuto    = "auto"
	TriggerCommand = "command" // the user typed /compact
	TriggerTool    = "tool"    // the model called compact
	TriggerButton  = "button"  // chat/compact from the UI
)

// TagFree is the free phase's sub-agent tag: the only phase in which global
// compaction runs. Executor, evaluator and sub-agent runs use other tags.
const TagFree = "free"

// ErrNothingToCompact is returned when the whole track is within keepTokens.
var ErrNothingToCompact = errors.New("nothing to summarise yet: the conversation still fits in govibe.compact.keepTokens")

// CompactionInfo describes one compaction attempt, successful or not.
type CompactionInfo struct {
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
	// Notice is the divider's text; MessageID/MessageSeq name the UI-track
	// event message holding it.
	Notice     string
	MessageID  string
	MessageSeq int64
	Context    ContextUse
}

// CompactionRecord is the persisted trace of one attempt; the divider
// message it names shows its summary.
type CompactionRecord = sessionstate.CompactionRecord

// compactGuard stops automatic compaction from looping after a failure: it
// only retries once the context has grown past RetryAbove.
type compactGuard = sessionstate.CompactGuardState

func (e *Engine) compactPolicy(p Profile) compact.Policy {
	v := e.Settings()
	return compact.Policy{
		Window: p.ContextWindow, MaxOutput: p.MaxOutputTokens,
		Threshold: v.Float("compact.threshold"), KeepTokens: v.Int("compact.keepTokens"),
	}.Normalized()
}

// freeTools is the free phase's tool list, compact included.
func (e *Engine) freeTools(sid, turnID string) []tools.Tool {
	return append(tools.Builtin(), e.compactTool(sid, turnID, TagFree))
}

// defsOf renders tools exactly as the agent loop does, so a compaction
// request carries byte-identical tool definitions.
func defsOf(ts []tools.Tool) []llm.ToolDef {
	defs := make([]llm.ToolDef, 0, len(ts))
	for _, t := range ts {
		defs = append(defs, llm.ToolDef{Name: t.Name(), Description: t.Description(), Parameters: t.Schema()})
	}
	return defs
}

// freeToolDefs are the definitions a free-phase run of the session offers
// (its tools minus those its role blocks), in the run's order.
func (e *Engine) freeToolDefs(ctx context.Context, sid string) []llm.ToolDef {
	ts, blocked := e.roleTools(ctx, &turn{sessionID: sid}, scheduler.RoleFree, TagFree, false)
	offered := make([]tools.Tool, 0, len(ts))
	for _, t := range ts {
		if _, no := blocked[t.Name()]; !no {
			offered = append(offered, t)
		}
	}
	return defsOf(offered)
}

// requestToolDefs is what the free run sends: no definitions in the text
// tool-call protocol.
func (e *Engine) requestToolDefs(ctx context.Context, sid string, p Profile) []llm.ToolDef {
	if firstNonEmpty(p.ToolCalling, e.Settings().String("toolCalling")) == "text" {
		return nil
	}
	return e.freeToolDefs(ctx, sid)
}

// Compact summarises a session's earlier messages now and waits for the
// result (the compact tool). A failed summary is not an error: it is
// reported in the info (Failed) after the mechanical fallback ran.
func (e *Engine) Compact(ctx context.Context, sid, turnID, trigger string) (CompactionInfo, error) {
	if why := e.compactReg().blockedWhy(sid); why != "" {
		return CompactionInfo{}, fmt.Errorf("compaction is not available now: %s", why)
	}
	release, err := e.compactReg().acquire(ctx, sid, false)
	if err != nil {
		return CompactionInfo{}, err
	}
	defer release()
	return e.compactLocked(ctx, sid, turnID, trigger)
}

// StartCompaction runs Compact in the background (the button and /compact)
// and returns at once; the outcome arrives as a compaction event. A turn
// may run meanwhile: what it appends is kept.
func (e *Engine) StartCompaction(ctx context.Context, sid, trigger string) (jobID string, err error) {
	if _, err := e.Store.GetSession(ctx, sid); err != nil {
		return "", fmt.Errorf("session %s: %w", sid, err)
	}
	reg := e.compactReg()
	if why := reg.blockedWhy(sid); why != "" {
		return "", fmt.Errorf("compaction is not available now: %s", why)
	}
	release, err := reg.acquire(ctx, sid, false)
	if err != nil {
		return "", err
	}
	job := uuid.NewString()
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer release()
		info, err := e.compactLocked(e.baseCtx, sid, job, trigger)
		status := "done"
		switch {
		case err != nil:
			status = "error"
			text := "Could not summarise earlier messages: " + err.Error()
			if errors.Is(err, ErrNothingToCompact) {
				status, text = "done", "Nothing to summarise yet: the conversation is still short."
			}
			e.Bus.Publish(Event{SessionID: sid, TurnID: job, Kind: KindNotice, SubAgentTag: TagFree, Text: text, Status: "warn"})
		case info.Failed:
			status = "error"
		}
		if trigger == TriggerCommand {
			fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			e.Bus.Publish(Event{SessionID: sid, TurnID: job, Kind: KindTurnFinished, SubAgentTag: TagFree, Status: status, Payload: e.ContextUse(fctx, sid)})
		}
	}()
	return job, nil
}

// compactLocked does the work; the caller holds the session's slot.
func (e *Engine) compactLocked(ctx context.Context, sid, turnID, trigger string) (CompactionInfo, error) {
	info := CompactionInfo{Trigger: trigger}
	est := compact.Default()
	profile := e.profile()
	pol := e.compactPolicy(profile)
	track, err := e.Store.LLMMessages(ctx, sid)
	if err != nil {
		return info, err
	}
	limit := len(track) - 1
	if st := e.btwOf(ctx, sid); st.Active && st.Start < limit {
		// A side conversation is discarded later by position: never
		// summarise into it.
		limit = st.Start
	}
	n := compact.Split(track, pol.KeepTokens, limit, est.Message)
	if n == 0 || est.Messages(track[:n]) < compact.MinTokens {
		return info, ErrNothingToCompact
	}
	old := track[:n]
	info.Messages = n
	system, defs := e.systemPrompt(), e.requestToolDefs(ctx, sid, profile)
	instr := compact.InstructionMessage()
	part, _ := Sanitize(old)
	overhead := est.Text(system) + est.Tools(defs) + est.Message(instr) + 4
	send, cut, err := compact.Fit(part, overhead, pol.RequestBudget(), est)
	info.Truncated = cut
	if err != nil {
		return e.compactFailed(ctx, sid, turnID, info, track, n, err)
	}
	client, err := e.client(profile)
	if err != nil {
		return info, err
	}
	req := llm.Request{SessionID: sid, MaxTokens: pol.Reserve(), Tools: defs,
		Messages: append(append([]llm.Message{{Role: llm.RoleSystem, Content: system}}, send...), instr)}
	resp, err := client.Stream(ctx, req, func(llm.Event) {})
	if err != nil && errors.Is(err, llm.ErrToolsUnsupported) && len(req.Tools) > 0 {
		req.Tools = nil
		resp, err = client.Stream(ctx, req, func(llm.Event) {})
	}
	if err != nil {
		if ctx.Err() != nil {
			return info, ctx.Err()
		}
		return e.compactFailed(ctx, sid, turnID, info, track, n, fmt.Errorf("the summary request failed: %w", err))
	}
	snapshot, err := compact.ExtractSnapshot(resp.Content)
	if err != nil {
		return e.compactFailed(ctx, sid, turnID, info, track, n, err)
	}
	current := ""
	if cur := compact.CurrentRequest(track); cur >= 0 && cur < n {
		current = track[cur].Content
	}
	repl := []llm.Message{compact.SummaryMessage(snapshot, current)}
	if track[n].Role == llm.RoleUser {
		repl = append(repl, compact.Acknowledgement())
	}
	info.BeforeTokens, info.AfterTokens = est.Messages(old), est.Messages(repl)
	if err := compact.CheckSmaller(info.BeforeTokens, info.AfterTokens); err != nil {
		return e.compactFailed(ctx, sid, turnID, info, track, n, err)
	}
	if err := e.replacePrefix(ctx, sid, old, repl); err != nil {
		return info, err
	}
	_ = sessionstate.Delete(ctx, e.Store, sid, sessionstate.CompactGuard)
	info.Summary, info.SavedTokens = snapshot, info.BeforeTokens-info.AfterTokens
	info.Notice = fmt.Sprintf("Earlier messages were summarised (saved %d tokens)", info.SavedTokens)
	m, err := e.Store.AppendMessage(ctx, sid, store.NewMessage{Role: store.RoleEvent, HiddenFromLLM: true, Parts: []store.Part{
		{Kind: store.PartNotice, Notice: &store.Notice{Level: store.NoticeInfo, Text: info.Notice}},
		{Kind: store.PartText, Text: snapshot},
	}})
	if err != nil {
		e.log.Warn("recording the compaction divider", zap.String("session", sid), zap.Error(err))
	}
	info.MessageID, info.MessageSeq = m.ID, m.Seq
	e.recordCompaction(ctx, sid, CompactionRecord{Trigger: trigger, Status: "done", MessageID: m.ID, Messages: n,
		Before: info.BeforeTokens, After: info.AfterTokens, Saved: info.SavedTokens, Truncated: cut, RequestSent: int(resp.Usage.PromptTokens)})
	e.afterTrackChange(ctx, sid, system, defs)
	info.Context = e.ContextUse(ctx, sid)
	e.Bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: KindCompaction, SubAgentTag: TagFree, MessageID: m.ID, MessageSeq: m.Seq,
		Text: snapshot, Status: "done", Payload: info})
	return info, nil
}

// compactFailed records a failed attempt and falls back to truncating the
// large tool outputs of the old range. Automatic compaction then waits for
// the context to grow by keepTokens before trying again, so it never loops.
func (e *Engine) compactFailed(ctx context.Context, sid, turnID string, info CompactionInfo, track []llm.Message, n int, cause error) (CompactionInfo, error) {
	est := compact.Default()
	profile := e.profile()
	pol := e.compactPolicy(profile)
	system, defs := e.systemPrompt(), e.requestToolDefs(ctx, sid, profile)
	info.Failed, info.Reason = true, cause.Error()
	old := track[:n]
	short, saved := compact.TruncateToolOutputs(old, 0, est)
	if saved > 0 {
		if err := e.replacePrefix(ctx, sid, old, short); err != nil {
			saved = 0
			e.log.Warn("truncating old tool outputs", zap.String("session", sid), zap.Error(err))
		}
	}
	info.SavedTokens = saved
	now, _ := e.Store.LLMMessages(ctx, sid)
	_ = sessionstate.Set(ctx, e.Store, sid, sessionstate.CompactGuard, compactGuard{RetryAbove: est.Request(system, defs, now) + pol.KeepTokens})
	info.Notice = fmt.Sprintf("Summarising earlier messages failed (%s). Large old tool outputs were shortened instead (saved %d tokens).", info.Reason, saved)
	m, err := e.Store.AppendMessage(ctx, sid, store.NewMessage{Role: store.RoleEvent, HiddenFromLLM: true, Parts: []store.Part{
		{Kind: store.PartNotice, Notice: &store.Notice{Level: store.NoticeWarn, Text: info.Notice}},
	}})
	if err != nil {
		e.log.Warn("recording the failed compaction", zap.String("session", sid), zap.Error(err))
	}
	info.MessageID, info.MessageSeq = m.ID, m.Seq
	e.recordCompaction(ctx, sid, CompactionRecord{Trigger: info.Trigger, Status: "failed", Reason: info.Reason, MessageID: m.ID,
		Messages: n, Saved: saved, Truncated: info.Truncated})
	e.afterTrackChange(ctx, sid, system, defs)
	info.Context = e.ContextUse(ctx, sid)
	e.Bus.Publish(Event{SessionID: sid, TurnID: turnID, Kind: KindCompaction, SubAgentTag: TagFree, MessageID: m.ID, MessageSeq: m.Seq,
		Text: info.Notice, Status: "failed", Payload: info})
	return info, nil
}

// replacePrefix swaps the track's first len(old) messages for repl, after
// checking they are still exactly old: messages appended meanwhile are
// kept, and a track rewritten meanwhile is left alone. The caller holds
// the session's compaction slot, so no other compaction interleaves.
func (e *Engine) replacePrefix(ctx context.Context, sid string, old, repl []llm.Message) error {
	now, err := e.Store.LLMMessages(ctx, sid)
	if err != nil {
		return err
	}
	if len(now) < len(old) {
		return errors.New("the conversation changed while it was being summarised; nothing was replaced")
	}
	for i := range old {
		if !sameMessage(now[i], old[i]) {
			return errors.New("the conversation changed while it was being summarised; nothing was replaced")
		}
	}
	btw := e.btwOf(ctx, sid)
	if err := e.Store.ReplaceLLMMessages(ctx, sid, 0, len(old), repl); err != nil {
		return err
	}
	if delta := len(repl) - len(old); delta != 0 && btw.Active && btw.Start >= len(old) {
		// The side conversation's start moved with the messages before it,
		// unless it changed while we replaced.
		if cur := e.btwOf(ctx, sid); cur == btw {
			cur.Start += delta
			return sessionstate.Set(ctx, e.Store, sid, sessionstate.BTW, cur)
		}
	}
	return nil
}

func sameMessage(a, b llm.Message) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

func (e *Engine) btwOf(ctx context.Context, sid string) btwState {
	return sessionstate.Lookup(ctx, e.Store, sid, sessionstate.BTW)
}

// afterTrackChange makes the context bar show the new track's estimate
// until the next request reports the provider's count.
func (e *Engine) afterTrackChange(ctx context.Context, sid, system string, defs []llm.ToolDef) {
	now, err := e.Store.LLMMessages(ctx, sid)
	if err != nil {
		return
	}
	tokens := int64(compact.Default().Request(system, defs, now))
	e.updateUsage(sid, func(st *usageState) {
		st.ContextTokens, st.ContextSource = tokens, SourceEstimate
	})
}

func (e *Engine) recordCompaction(ctx context.Context, sid string, r CompactionRecord) {
	r.Time = time.Now().UnixMilli()
	recs := e.Compactions(ctx, sid)
	recs = append(recs, r)
	if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.Compactions, recs); err != nil {
		e.log.Warn("recording the compaction", zap.String("session", sid), zap.Error(err))
	}
}

// Compactions lists a session's compaction attempts, oldest first.
func (e *Engine) Compactions(ctx context.Context, sid string) []CompactionRecord {
	return sessionstate.Lookup(ctx, e.Store, sid, sessionstate.Compactions)
}

func (e *Engine) guardOf(ctx context.Context, sid string) compactGuard {
	return sessionstate.Lookup(ctx, e.Store, sid, sessionstate.CompactGuard)
}
