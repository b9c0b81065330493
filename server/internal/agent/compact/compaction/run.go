package compaction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// Reserve takes the session's slot for an explicit compaction (command,
// button, tool): refused while blocked or while another one runs. Run
// CompactReserved, then call release.
func (c *Compactor) Reserve(ctx context.Context, sid string) (release func(), err error) {
	return c.slots.acquireNow(ctx, sid)
}

// Compact summarises a session's earlier messages now and waits for the
// result. A failed summary is not an error: it is reported in the info
// (Failed) after the mechanical fallback ran.
func (c *Compactor) Compact(ctx context.Context, sid, turnID, trigger string) (Info, error) {
	release, err := c.Reserve(ctx, sid)
	if err != nil {
		return Info{}, err
	}
	defer release()
	return c.CompactReserved(ctx, sid, turnID, trigger)
}

// CompactReserved does the work; the caller holds the session's slot.
func (c *Compactor) CompactReserved(ctx context.Context, sid, turnID, trigger string) (Info, error) {
	info := Info{Trigger: trigger}
	c.host.BeforeCompact(ctx, sid, turnID, trigger)
	est := compact.Default()
	pol := c.host.Policy(ctx, sid)
	track, err := c.tracks.LLMMessages(ctx, sid)
	if err != nil {
		return info, err
	}
	limit := len(track) - 1
	if st := sessionstate.Lookup(ctx, c.tracks, sid, sessionstate.BTW); st.Active && st.Start < limit {
		// A side conversation is discarded later by position: never
		// summarise into it.
		limit = st.Start
	}
	system, defs := c.host.Prefix(ctx, sid)
	n := compact.Split(track, pol.KeepTokens, limit, est.Message)
	nothing := n == 0 || est.Messages(track[:n]) < compact.MinTokens
	if nothing || est.Request(system, defs, track[n:]) > pol.Trigger() {
		// The cut cannot fall inside a tool result. When one larger than
		// the verbatim window sits in the part that stays, and nothing
		// else can be summarised or the part that stays alone passes the
		// threshold, shorten it: the context must always be able to
		// shrink. The summarised range [0, n) is untouched.
		short, saved := compact.ShortenLarge(track, n, max(pol.KeepTokens, compact.MinTokens), est)
		if saved == 0 && nothing {
			return info, ErrNothingToCompact
		}
		if saved > 0 {
			if err := c.replaceChanged(ctx, sid, track, short); err != nil {
				return info, err
			}
			info.Shortened, track = saved, short
		}
		if nothing {
			if n = compact.Split(track, pol.KeepTokens, limit, est.Message); n == 0 || est.Messages(track[:n]) < compact.MinTokens {
				return c.shortenedOnly(ctx, sid, turnID, info)
			}
		}
	}
	old := track[:n]
	info.Messages = n
	instr := compact.InstructionMessage()
	part, _ := compact.Sanitize(old)
	client, summaryPol, err := c.host.Client(ctx, sid)
	if err != nil {
		return info, err
	}
	overhead := est.Text(system) + est.Tools(defs) + est.Message(instr) + 4
	// The summary goes to the compaction role's model when one is set:
	// its window, not the session model's, bounds the request.
	send, cut, err := compact.Fit(part, overhead, summaryPol.RequestBudget(), est)
	info.Truncated = cut
	if err != nil {
		return c.failed(ctx, sid, turnID, info, track, n, err)
	}
	req := llm.Request{SessionID: sid, Purpose: llm.PurposeCompaction, MaxTokens: summaryPol.Reserve(), Tools: defs,
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
		return c.failed(ctx, sid, turnID, info, track, n, fmt.Errorf("the summary request failed: %w", err))
	}
	snapshot, err := compact.ExtractSnapshot(resp.Content)
	if err != nil {
		return c.failed(ctx, sid, turnID, info, track, n, err)
	}
	kept := c.kept(ctx, sid, n)
	repl := summaryMessages(snapshot, kept, track[n])
	info.BeforeTokens, info.AfterTokens = est.Messages(old), est.Messages(repl)
	if err := compact.CheckSmaller(info.BeforeTokens, info.AfterTokens); err != nil {
		return c.failed(ctx, sid, turnID, info, track, n, err)
	}
	if err := c.replacePrefix(ctx, sid, old, repl); err != nil {
		return info, err
	}
	_ = sessionstate.Delete(ctx, c.tracks, sid, sessionstate.CompactGuard)
	info.Summary, info.SavedTokens = snapshot, info.BeforeTokens-info.AfterTokens+info.Shortened
	info.Kept, info.KeptText = kept.Counts(), kept.Render()
	info.Notice = c.notice(info)
	parts := []store.Part{
		{Kind: store.PartNotice, Notice: &store.Notice{Level: store.NoticeInfo, Text: info.Notice}},
		{Kind: store.PartText, Text: snapshot},
	}
	if info.KeptText != "" {
		// The divider shows what was kept after the summary: the third part.
		parts = append(parts, store.Part{Kind: store.PartText, Text: info.KeptText})
	}
	m, err := c.tracks.AppendMessage(ctx, sid, store.NewMessage{Role: store.RoleEvent, HiddenFromLLM: true, Parts: parts})
	if err != nil {
		c.log.Warn("recording the compaction divider", zap.String("session", sid), zap.Error(err))
	}
	info.MessageID, info.MessageSeq = m.ID, m.Seq
	c.record(ctx, sid, Record{Trigger: trigger, Status: "done", MessageID: m.ID, Messages: n, Before: info.BeforeTokens,
		After: info.AfterTokens, Saved: info.SavedTokens, Shortened: info.Shortened, Truncated: cut, RequestSent: int(resp.Usage.PromptTokens), Kept: (*sessionstate.CompactionKept)(&info.Kept)})
	c.afterTrackChange(ctx, sid, system, defs)
	c.host.Compacted(ctx, sid, turnID, info)
	return info, nil
}

// shortenedOnly finishes an attempt whose shortening of a dominant tool
// result left too little before the verbatim window to summarise: the
// context shrank, and no model call was needed.
func (c *Compactor) shortenedOnly(ctx context.Context, sid, turnID string, info Info) (Info, error) {
	info.SavedTokens = info.Shortened
	info.Notice = c.host.Tr("A large tool output was shortened to its beginning and end (saved %d tokens); the model can read the rest again.", info.Shortened)
	m, err := c.tracks.AppendMessage(ctx, sid, store.NewMessage{Role: store.RoleEvent, HiddenFromLLM: true, Parts: []store.Part{
		{Kind: store.PartNotice, Notice: &store.Notice{Level: store.NoticeInfo, Text: info.Notice}},
	}})
	if err != nil {
		c.log.Warn("recording the shortening", zap.String("session", sid), zap.Error(err))
	}
	info.MessageID, info.MessageSeq = m.ID, m.Seq
	_ = sessionstate.Delete(ctx, c.tracks, sid, sessionstate.CompactGuard)
	c.record(ctx, sid, Record{Trigger: info.Trigger, Status: "done", MessageID: m.ID, Saved: info.SavedTokens, Shortened: info.Shortened})
	system, defs := c.host.Prefix(ctx, sid)
	c.afterTrackChange(ctx, sid, system, defs)
	c.host.Compacted(ctx, sid, turnID, info)
	return info, nil
}

// failed records a failed attempt and falls back to truncating the large
// tool outputs of the old range. Automatic compaction then waits for the
// context to grow by keepTokens before trying again, so it never loops.
func (c *Compactor) failed(ctx context.Context, sid, turnID string, info Info, track []llm.Message, n int, cause error) (Info, error) {
	est := compact.Default()
	pol := c.host.Policy(ctx, sid)
	system, defs := c.host.Prefix(ctx, sid)
	info.Failed, info.Reason = true, cause.Error()
	old := track[:n]
	short, saved := compact.TruncateToolOutputs(old, 0, est)
	if saved > 0 {
		if err := c.replacePrefix(ctx, sid, old, short); err != nil {
			saved = 0
			c.log.Warn("truncating old tool outputs", zap.String("session", sid), zap.Error(err))
		}
	}
	info.SavedTokens = saved + info.Shortened
	now, _ := c.tracks.LLMMessages(ctx, sid)
	_ = sessionstate.Set(ctx, c.tracks, sid, sessionstate.CompactGuard, sessionstate.CompactGuardState{RetryAbove: est.Request(system, defs, now) + pol.KeepTokens})
	info.Notice = c.host.Tr("Summarising earlier messages failed (%s). Large old tool outputs were shortened instead (saved %d tokens).", info.Reason, info.SavedTokens)
	m, err := c.tracks.AppendMessage(ctx, sid, store.NewMessage{Role: store.RoleEvent, HiddenFromLLM: true, Parts: []store.Part{
		{Kind: store.PartNotice, Notice: &store.Notice{Level: store.NoticeWarn, Text: info.Notice}},
	}})
	if err != nil {
		c.log.Warn("recording the failed compaction", zap.String("session", sid), zap.Error(err))
	}
	info.MessageID, info.MessageSeq = m.ID, m.Seq
	c.record(ctx, sid, Record{Trigger: info.Trigger, Status: "failed", Reason: info.Reason, MessageID: m.ID,
		Messages: n, Saved: info.SavedTokens, Shortened: info.Shortened, Truncated: info.Truncated})
	c.afterTrackChange(ctx, sid, system, defs)
	c.host.Compacted(ctx, sid, turnID, info)
	return info, nil
}

// replacePrefix swaps the track's first len(old) messages for repl, after
// checking they are still exactly old: messages appended meanwhile are
// kept, and a track rewritten meanwhile is left alone. The caller holds
// the session's compaction slot, so no other compaction interleaves.
func (c *Compactor) replacePrefix(ctx context.Context, sid string, old, repl []llm.Message) error {
	now, err := c.tracks.LLMMessages(ctx, sid)
	if err != nil {
		return err
	}
	if len(now) < len(old) {
		return errors.New("the conversation changed while it was being summarised; nothing was replaced")
	}
	for i := range old {
		if !SameMessage(now[i], old[i]) {
			return errors.New("the conversation changed while it was being summarised; nothing was replaced")
		}
	}
	btw := sessionstate.Lookup(ctx, c.tracks, sid, sessionstate.BTW)
	if err := c.tracks.ReplaceLLMMessages(ctx, sid, 0, len(old), repl); err != nil {
		return err
	}
	if delta := len(repl) - len(old); delta != 0 && btw.Active && btw.Start >= len(old) {
		// The side conversation's start moved with the messages before it,
		// unless it changed while we replaced.
		if cur := sessionstate.Lookup(ctx, c.tracks, sid, sessionstate.BTW); cur == btw {
			cur.Start += delta
			return sessionstate.Set(ctx, c.tracks, sid, sessionstate.BTW, cur)
		}
	}
	return nil
}

// replaceChanged rewrites the messages of old that differ in short (same
// length, same roles), each in place, after checking the track still
// starts with old. Unchanged messages keep their source message, which a
// run parked on a question needs to resume.
func (c *Compactor) replaceChanged(ctx context.Context, sid string, old, short []llm.Message) error {
	now, err := c.tracks.LLMMessages(ctx, sid)
	if err != nil {
		return err
	}
	if len(now) < len(old) {
		return errors.New("the conversation changed while it was being shortened; nothing was replaced")
	}
	for i := range old {
		if !SameMessage(now[i], old[i]) {
			return errors.New("the conversation changed while it was being shortened; nothing was replaced")
		}
	}
	for i := range old {
		if !SameMessage(old[i], short[i]) {
			if err := c.tracks.ReplaceLLMMessages(ctx, sid, i, i+1, short[i:i+1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// SameMessage reports whether two model messages are identical.
func SameMessage(a, b llm.Message) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// afterTrackChange makes the context bar show the new track's estimate
// until the next request reports the provider's count.
func (c *Compactor) afterTrackChange(ctx context.Context, sid, system string, defs []llm.ToolDef) {
	now, err := c.tracks.LLMMessages(ctx, sid)
	if err != nil {
		return
	}
	c.host.ContextEstimated(sid, int64(compact.Default().Request(system, defs, now)))
}

func (c *Compactor) record(ctx context.Context, sid string, r Record) {
	r.Time = time.Now().UnixMilli()
	recs := append(c.Records(ctx, sid), r)
	if err := sessionstate.Set(ctx, c.tracks, sid, sessionstate.Compactions, recs); err != nil {
		c.log.Warn("recording the compaction", zap.String("session", sid), zap.Error(err))
	}
}
