package compaction

import (
	"context"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/gate/watchdog"
	"github.com/govibe/govibe/server/internal/model/llm"
)

// Prepare is a run's agent.Run.Prepare: it sends the session's model
// track as stored (so a compaction made by any path takes effect at the
// next request), compacts first when the request would pass the
// threshold, and sanitizes. Only free-phase runs (free) compact; any
// other run (executor, evaluator, sub-agents) only sanitizes its own
// messages.
//
// The system prompt and tool definitions the estimate counts are built once
// per run (the run's own prompt and tools are fixed when it starts), not
// once per request: rebuilding them was a fifth of a read round's CPU.
func (c *Compactor) Prepare(sid, turnID string, free bool) func(context.Context, []llm.Message) ([]llm.Message, error) {
	var pre *prefix
	return func(ctx context.Context, msgs []llm.Message) ([]llm.Message, error) {
		send := msgs
		if free {
			if pre == nil {
				system, defs := c.host.Prefix(ctx, sid)
				pre = &prefix{system: system, defs: defs}
			}
			var err error
			if send, err = c.beforeRequest(ctx, sid, turnID, pre, msgs); err != nil {
				return nil, err
			}
		}
		watchdog.Doing(ctx, "repairing the history (sanitize)")
		fixed, _ := compact.Sanitize(send)
		if err := compact.ValidateToolPairs(fixed); err != nil {
			return nil, err
		}
		return fixed, nil
	}
}

// beforeRequest returns the track to send, compacting it first when its
// estimate passes govibe.compact.threshold of the window. After an
// automatic compaction the host may ask whether to go on
// (Host.ContinueAfter); its error ends the run.
func (c *Compactor) beforeRequest(ctx context.Context, sid, turnID string, pre *prefix, msgs []llm.Message) ([]llm.Message, error) {
	if c.slots.blockedWhy(sid) != "" {
		return msgs, nil
	}
	est := compact.Default()
	pol := c.host.Policy(ctx, sid)
	system, defs := pre.system, pre.defs
	track := c.modelTrack(ctx, sid, msgs)
	// The loop runs this under a CPU watchdog (agent.Run.PrepareBudget):
	// name each step for its message should one spin.
	watchdog.Doing(ctx, "estimating the request's tokens")
	if !pol.ShouldCompact(est.Request(system, defs, track)) {
		return track, nil
	}
	if ch := c.slots.running(sid); ch != nil {
		// A compaction started elsewhere (the button) is about to shrink
		// the track: wait for it rather than start a second one.
		select {
		case <-ch:
		case <-ctx.Done():
			return track, nil
		}
		track = c.modelTrack(ctx, sid, msgs)
	}
	tokens := est.Request(system, defs, track)
	if pol.ShouldCompact(tokens) && tokens > c.RetryAbove(ctx, sid) {
		watchdog.Doing(ctx, "planning and running the automatic compaction")
		release, err := c.slots.acquire(ctx, sid, true)
		var info Info
		if err == nil {
			info, err = c.CompactReserved(ctx, sid, turnID, TriggerAuto)
			release()
		}
		if err != nil && ctx.Err() == nil {
			c.log.Info("automatic compaction", zap.String("session", sid), zap.Error(err))
		}
		if err == nil {
			// Waiting for a person is not the step's CPU.
			resume := watchdog.Pause(ctx)
			err := c.host.ContinueAfter(ctx, sid, turnID, info)
			resume()
			if err != nil {
				return nil, err
			}
		}
		track = c.modelTrack(ctx, sid, msgs)
		watchdog.Doing(ctx, "estimating the compacted request's tokens")
		tokens = est.Request(system, defs, track)
	}
	if tokens > pol.RequestBudget() {
		// Last resort before an overflow: shorten every tool output beyond
		// the newest keepTokens' worth, and persist it so the next request
		// shares the prefix.
		short, saved := compact.TruncateToolOutputs(track, pol.KeepTokens, est)
		if saved > 0 {
			if err := c.replacePrefix(ctx, sid, track, short); err == nil {
				track = short
			}
		}
	}
	return track, nil
}

// prefix is what a request sends before its messages.
type prefix struct {
	system string
	defs   []llm.ToolDef
}

// modelTrack is the stored track when it ends where the run's own list
// ends (the loop's messages are committed before the next request), else
// the run's list: a run that keeps its own history is never mixed up.
func (c *Compactor) modelTrack(ctx context.Context, sid string, msgs []llm.Message) []llm.Message {
	track, err := c.tracks.LLMMessages(ctx, sid)
	if err != nil || len(track) == 0 || len(msgs) == 0 || !SameMessage(track[len(track)-1], msgs[len(msgs)-1]) {
		return msgs
	}
	return track
}
