package agent

import (
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// ShownCall is c as everything but the model's own track sees it: a call
// of the deferred tools' entry that runs a tool (tools.ResolveDeferred)
// is that tool's call, with its name and arguments and c's id. The tool
// policy, approvals and hooks judge, and the chat's card shows, the real
// tool; the model's track keeps the call as the model wrote it, and its
// result answers c's id either way.
func ShownCall(c llm.ToolCall) llm.ToolCall {
	if name, args, ok := tools.ResolveDeferred(c.Name, c.Arguments); ok {
		c.Name, c.Arguments = name, args
	}
	return c
}

// ShownCalls is ShownCall of each call, in a new slice (calls is the
// model's message, which must keep what it wrote).
func ShownCalls(calls []llm.ToolCall) []llm.ToolCall {
	out := make([]llm.ToolCall, len(calls))
	for i, c := range calls {
		out[i] = ShownCall(c)
	}
	return out
}
