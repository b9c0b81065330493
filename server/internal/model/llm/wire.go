package llm

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"
)

// buildParams converts a provider-neutral Request into openai-go params,
// applying the profile's provider quirks: everything but the messages and
// the tools, which requestBody encodes through its cache (body.go).
func (c *OpenAIClient) buildParams(req Request) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: c.profile.Model}
	if !c.profile.Wire.NoStreamUsage {
		p.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: param.NewOpt(true)}
	}
	extra, effort := thinkingFields(c.profile.Wire.Thinking, c.profile.ReasoningEffort)
	if effort != "" && !c.profile.Wire.NoReasoningEffort {
		p.ReasoningEffort = shared.ReasoningEffort(effort)
	}
	if len(extra) > 0 {
		p.SetExtraFields(extra)
	}
	if t := c.profile.Temperature; t != nil {
		p.Temperature = param.NewOpt(*t)
	}
	maxTok := req.MaxTokens
	if maxTok <= 0 {
		maxTok = c.profile.MaxOutputTokens
	}
	if maxTok > 0 {
		// OpenAI's reasoning models reject max_tokens; compatible servers
		// (DeepSeek, vLLM, Ollama) mostly ignore max_completion_tokens.
		if c.provider == ProviderOpenAI {
			p.MaxCompletionTokens = param.NewOpt(int64(maxTok))
		} else {
			p.MaxTokens = param.NewOpt(int64(maxTok))
		}
	}
	return p, nil
}

// reasoningTurns marks the assistant messages whose reasoning_content
// DeepSeek's thinking mode needs back: every assistant message of a user
// turn (the span between two user messages) in which the model called a
// tool. DeepSeek's docs require this for all later requests, not just the
// current turn, and ignore it for turns without tool calls; sending the
// same bytes every time also keeps the prompt-cache prefix stable.
func reasoningTurns(msgs []Message) []bool {
	mark := make([]bool, len(msgs))
	start := 0
	flush := func(end int) {
		hasTool := false
		for i := start; i < end; i++ {
			if msgs[i].Role == RoleAssistant && len(msgs[i].ToolCalls) > 0 {
				hasTool = true
				break
			}
		}
		if !hasTool {
			return
		}
		for i := start; i < end; i++ {
			if msgs[i].Role == RoleAssistant {
				mark[i] = true
			}
		}
	}
	for i, m := range msgs {
		if m.Role == RoleUser {
			flush(i)
			start = i + 1
		}
	}
	flush(len(msgs))
	return mark
}

// convertMessage converts message i of a conversation; replayed says
// whether its reasoning goes back to the model (reasoningTurns), in the
// field named field.
func convertMessage(i int, m Message, replayed bool, field string, toolCallExtra bool) (openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case RoleSystem:
		return openai.SystemMessage(m.Content), nil
	case RoleUser:
		u := openai.UserMessage(m.Content)
		if m.Name != "" {
			u.OfUser.Name = param.NewOpt(m.Name)
		}
		return u, nil
	case RoleAssistant:
		a := openai.ChatCompletionAssistantMessageParam{}
		if m.Content != "" || len(m.ToolCalls) == 0 {
			a.Content.OfString = param.NewOpt(m.Content)
		}
		for _, tc := range m.ToolCalls {
			fc := &openai.ChatCompletionMessageFunctionToolCallParam{
				ID: tc.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
					Name:      tc.Name,
					Arguments: tc.Arguments,
				},
			}
			if toolCallExtra && len(tc.Extra) > 0 {
				fc.SetExtraFields(map[string]any{"extra_content": json.RawMessage(tc.Extra)})
			}
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: fc})
		}
		if replayed {
			a.SetExtraFields(map[string]any{field: m.ReasoningContent})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	case RoleTool:
		if m.ToolCallID == "" {
			return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("message %d: tool result without tool_call_id", i)
		}
		return openai.ToolMessage(m.Content, m.ToolCallID), nil
	}
	return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("message %d: unknown role %q", i, m.Role)
}
