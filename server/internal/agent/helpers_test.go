package agent

import "github.com/govibe/govibe/server/internal/model/llm"

type llmCall struct{ name, args string }

func toCalls(cs []llmCall) []llm.ToolCall {
	out := make([]llm.ToolCall, len(cs))
	for i, c := range cs {
		out[i] = llm.ToolCall{ID: c.name, Name: c.name, Arguments: c.args}
	}
	return out
}
