package engine

import (
	"context"
	"fmt"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/modes"
)

// dropOrphanPrompt takes the turn's user message back out of the model
// track when nothing followed it there: the turn failed or was stopped
// before the model replied (a reconcile loop's agents write to their own
// child sessions, so a stopped or failed loop leaves nothing either). The
// next turn would otherwise send two user messages in a row, the first
// one never answered (deepseek-reasoner rejects successive user
// messages), and a Retry would repeat it. The transcript keeps the
// message; only what the model sees changes. A side conversation (BTW)
// keeps its own branch and is left alone.
func (e *Engine) dropOrphanPrompt(ctx context.Context, t *turn, b *begun) {
	if t.btw || len(b.history) == 0 {
		return
	}
	sid := t.sessionID
	// Only the track's end is read: the whole track would be decoded on
	// every turn's end (sessionbench -mode long).
	n, last, err := e.Store.LLMLast(ctx, sid)
	if err != nil {
		e.log.Warn("reading the model track", zap.String("session", sid), zap.Error(err))
		return
	}
	i := len(b.history) - 1
	prompt := b.history[i]
	// Only the exact shape the turn left: its prompt last, where it put it.
	if prompt.Role != llm.RoleUser || n != i+1 || last.Role != llm.RoleUser || last.Content != prompt.Content {
		return
	}
	if err := e.Store.ReplaceLLMMessages(ctx, sid, i, i+1, nil); err != nil {
		e.log.Warn("dropping an unanswered prompt", zap.String("session", sid), zap.Error(err))
	}
}

// reconcileOutcome is the loop turn's reply in the model track: the loop's
// agents worked in child sessions, and the next turn's model should know
// how the run it started ended (model-facing, so English).
func reconcileOutcome(final modes.RunState) llm.Message {
	m := final.Manifest
	text := fmt.Sprintf("The reconcile loop for the manifest %q ended %s after %d loop(s); failing tests per loop: %v.",
		m.Metadata.Name, m.Status.Phase, len(final.Diffs), final.Diffs)
	if m.Status.LastError != "" {
		text += " Reason: " + m.Status.LastError
	}
	return llm.Message{Role: llm.RoleAssistant, Content: text}
}
