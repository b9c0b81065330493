package agent

import (
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Sink receives everything a run produces, in order, from the run's
// goroutine (tool events may come from parallel tool goroutines, but each
// call is serialised through the Sink by the loop). The engine implements it
// to persist and publish. Methods must not block for long.
type Sink interface {
	// TextDelta and ReasoningDelta stream the current assistant message.
	TextDelta(text string)
	ReasoningDelta(text string)
	// Retry says the current stream broke and is retried: discard the
	// partial text streamed since the message began.
	Retry(attempt int, reason string)
	// Append records one message added to the model-visible history: the
	// completed assistant message (with its tool calls, before any of them
	// runs) and corrective user messages. Tool results arrive through
	// ToolFinished instead.
	Append(msg llm.Message)
	// ToolStarted and ToolFinished drive the UI's tool cards. ToolFinished
	// carries the history message holding the result, to be persisted
	// together with it.
	ToolStarted(call llm.ToolCall)
	ToolFinished(call llm.ToolCall, res tools.Result, d time.Duration, msg llm.Message)
	// Usage reports one model request's usage.
	Usage(u llm.Usage)
	// Notice is a user-visible note (e.g. a corrective retry).
	Notice(text string)
}
