package agent

import "github.com/govibe/govibe/server/internal/model/llm"

// The steps before a model request that run under the CPU watchdog, as
// its messages name them. The Prepare hook names its sub-step
// (watchdog.Doing): the token estimate, compaction planning, the
// sanitizer (issue 31 §5).
const (
	StepPrepare         = "preparing the model request"
	StepOverflowCompact = "compacting after the provider's context overflow"
)

// trackBytes is the size of what a pre-request step works on, for the
// watchdog's message: every message's text, reasoning and call arguments.
func trackBytes(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Content) + len(m.ReasoningContent)
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments)
		}
	}
	return n
}
