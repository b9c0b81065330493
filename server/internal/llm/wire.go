package llm

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"
)

// buildParams converts a provider-neutral Request into openai-go params,
// applying the profile's provider quirks.
func (c *OpenAIClient) buildParams(req Request) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: c.profile.Model}
	msgs, err := convertMessages(req.Messages, c.replayRule(), c.replayField(), c.profile.Wire.ToolCallExtra)
	if err != nil {
		return p, err
	}
	p.Messages = msgs
	for _, t := range req.Tools {
		fn := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			fn.Description = param.NewOpt(t.Description)
		}
		schema := map[string]any{}
		if len(t.Parameters) > 0 {
			if err := json.Unmarshal(t.Parameters, &schema); err != nil {
				return p, fmt.Errorf("tool %q has an invalid parameters schema: %w", t.Name, err)
			}
		} else {
			schema = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		fn.Parameters = schema
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fn))
	}
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

func convertMessages(msgs []Message, replay, field string, toolCallExtra bool) ([]openai.ChatCompletionMessageParamUnion, error) {
	var keepReasoning []bool
	if replay == ReplayToolTurns {
		keepReasoning = reasoningTurns(msgs)
	}
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for i, m := range msgs {
		switch m.Role {
		case RoleSystem:
			out = append(out, openai.SystemMessage(m.Content))
		case RoleUser:
			u := openai.UserMessage(m.Content)
			if m.Name != "" {
				u.OfUser.Name = param.NewOpt(m.Name)
			}
			out = append(out, u)
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
			if keepReasoning != nil && keepReasoning[i] {
				a.SetExtraFields(map[string]any{field: m.ReasoningContent})
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		case RoleTool:
			if m.ToolCallID == "" {
				return nil, fmt.Errorf("message %d: tool result without tool_call_id", i)
			}
			out = append(out, openai.ToolMessage(m.Content, m.ToolCallID))
		default:
			return nil, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
	}
	return out, nil
}
