package engine

import (
	"context"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/model/llm"
)

// maxStopContinues bounds how often Stop hooks may send the agent back to
// work in one turn, so a hook that always blocks cannot loop forever.
const maxStopContinues = 3

// continueOnStop runs the Stop hooks when the agent finished on its own.
// A hook that blocks (exit 2, or decision "block") sends the agent back
// to work with the hook's reason as a user message, at most
// maxStopContinues times per turn; each later run tells the hooks
// stop_hook_active, as Claude Code does, so a hook can let go.
func (e *Engine) continueOnStop(ctx context.Context, t *turn, b *begun, sink *turnSink, run *agent.Run, out agent.Outcome) agent.Outcome {
	for i := 0; ; i++ {
		if out.Status != agent.StatusDone || t.btw || ctx.Err() != nil {
			return out
		}
		res := e.hooks.Fire(ctx, t.id, hooks.Input{SessionID: t.sessionID, HookEventName: hooks.Stop, StopHookActive: i > 0})
		if !res.Blocked {
			return out
		}
		if i >= maxStopContinues {
			sink.Notice(e.Tr("A Stop hook blocked the end of the turn %d times; GoVibe stopped anyway so it cannot loop. Its reason: %s", i+1, res.Reason))
			return out
		}
		sink.Notice(e.Tr("A Stop hook asked the agent to continue: %s", res.Reason))
		m := llm.Message{Role: llm.RoleUser, Content: "<hook_feedback>\nA Stop hook did not let you finish yet. Its reason:\n" + res.Reason +
			"\nContinue the task to address it, then finish.\n</hook_feedback>"}
		if err := b.writer.CommitLLM(ctx, m); err != nil {
			e.log.Warn("committing the Stop hook's feedback", zap.String("session", t.sessionID), zap.Error(err))
			return out
		}
		out.Messages = append(out.Messages, m)
		more := run.Execute(ctx, append(append([]llm.Message(nil), b.history...), out.Messages...), &usageSink{turnSink: sink})
		out = mergeOutcomes(out, more)
	}
}
