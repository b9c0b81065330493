package engine

import (
	"context"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/compact"
	"github.com/govibe/govibe/server/internal/llm"
)

// prepareHook is a run's Prepare: it sends the session's model track as
// stored (so a compaction made by any path takes effect at the next
// request), compacts first when the request would pass the threshold, and
// sanitizes. Only runs tagged TagFree compact; any other tag (executor,
// evaluator, sub-agents) only sanitizes its own messages.
func (e *Engine) prepareHook(t *turn, tag string) func(context.Context, []llm.Message) ([]llm.Message, error) {
	allowed := tag == TagFree
	return func(ctx context.Context, msgs []llm.Message) ([]llm.Message, error) {
		send := msgs
		if allowed {
			send = e.beforeRequest(ctx, t, msgs)
		}
		fixed, _ := Sanitize(send)
		if err := ValidateToolPairs(fixed); err != nil {
			return nil, err
		}
		return fixed, nil
	}
}

// beforeRequest returns the track to send, compacting it first when its
// estimate passes govibe.compact.threshold of the window.
func (e *Engine) beforeRequest(ctx context.Context, t *turn, msgs []llm.Message) []llm.Message {
	sid := t.sessionID
	reg := e.compactReg()
	if reg.blockedWhy(sid) != "" {
		return msgs
	}
	est := compact.Default()
	profile := e.profile()
	pol := e.compactPolicy(profile)
	system, defs := e.systemPrompt(), e.requestToolDefs(ctx, sid, profile)
	track := e.modelTrack(ctx, sid, msgs)
	if !pol.ShouldCompact(est.Request(system, defs, track)) {
		return track
	}
	if ch := reg.running(sid); ch != nil {
		// A compaction started elsewhere (the button) is about to shrink
		// the track: wait for it rather than start a second one.
		select {
		case <-ch:
		case <-ctx.Done():
			return track
		}
		track = e.modelTrack(ctx, sid, msgs)
	}
	tokens := est.Request(system, defs, track)
	if pol.ShouldCompact(tokens) && tokens > e.guardOf(ctx, sid).RetryAbove {
		release, err := reg.acquire(ctx, sid, true)
		if err == nil {
			_, err = e.compactLocked(ctx, sid, t.id, TriggerAuto)
			release()
		}
		if err != nil && ctx.Err() == nil {
			e.log.Info("automatic compaction", zap.String("session", sid), zap.Error(err))
		}
		track = e.modelTrack(ctx, sid, msgs)
		tokens = est.Request(system, defs, track)
	}
	if tokens > pol.RequestBudget() {
		// Last resort before an overflow: shorten every tool output beyond
		// the newest keepTokens' worth, and persist it so the next request
		// shares the prefix.
		short, saved := compact.TruncateToolOutputs(track, pol.KeepTokens, est)
		if saved > 0 {
			if err := e.replacePrefix(ctx, sid, track, short); err == nil {
				track = short
			}
		}
	}
	return track
}

// modelTrack is the stored track when it ends where the run's own list
// ends (the loop's messages are committed before the next request), else
// the run's list: a run that keeps its own history is never mixed up.
func (e *Engine) modelTrack(ctx context.Context, sid string, msgs []llm.Message) []llm.Message {
	track, err := e.Store.LLMMessages(ctx, sid)
	if err != nil || len(track) == 0 || len(msgs) == 0 || !sameMessage(track[len(track)-1], msgs[len(msgs)-1]) {
		return msgs
	}
	return track
}
