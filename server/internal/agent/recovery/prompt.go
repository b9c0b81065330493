package recovery

import (
	"context"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// Track is the end of a session's model track.
type Track interface {
	LLMLast(ctx context.Context, sid string) (int, llm.Message, error)
	ReplaceLLMMessages(ctx context.Context, sid string, from, to int, msgs []llm.Message) error
}

// DropUnansweredPrompt takes a turn's user message back out of the model
// track when nothing followed it there: the turn failed or was stopped
// before the model replied (a reconcile loop's agents write to their own
// child sessions, so a stopped or failed loop leaves nothing either).
// history is the track the turn sent, its prompt last. The next turn
// would otherwise send two user messages in a row, the first one never
// answered (deepseek-reasoner rejects successive user messages), and a
// Retry would repeat it. The transcript keeps the message; only what the
// model sees changes. The caller leaves a side conversation (BTW), which
// keeps its own branch, alone.
func DropUnansweredPrompt(ctx context.Context, tr Track, log *zap.Logger, sid string, history []llm.Message) {
	if len(history) == 0 {
		return
	}
	// Only the track's end is read: the whole track would be decoded on
	// every turn's end (sessionbench -mode long).
	n, last, err := tr.LLMLast(ctx, sid)
	if err != nil {
		log.Warn("reading the model track", zap.String("session", sid), zap.Error(err))
		return
	}
	i := len(history) - 1
	prompt := history[i]
	// Only the exact shape the turn left: its prompt last, where it put it.
	if prompt.Role != llm.RoleUser || n != i+1 || last.Role != llm.RoleUser || last.Content != prompt.Content {
		return
	}
	if err := tr.ReplaceLLMMessages(ctx, sid, i, i+1, nil); err != nil {
		log.Warn("dropping an unanswered prompt", zap.String("session", sid), zap.Error(err))
	}
}
