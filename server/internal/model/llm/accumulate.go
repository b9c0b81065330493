package llm

import (
	"fmt"
	"strings"
)

// accumulator assembles one attempt's chunks into a Response. It is owned
// by the streaming goroutine.
type accumulator struct {
	content   strings.Builder
	reasoning strings.Builder
	calls     []*ToolCall
	byIndex   map[int64]int // chunk tool-call index -> position in calls
	finish    string
	usage     Usage
	gotUsage  bool
	emitted   bool
	// reasoningField and cacheField are the wire's (empty: any known).
	reasoningField, cacheField string
}

func newAccumulator(w Wire) *accumulator {
	return &accumulator{byIndex: map[int64]int{}, reasoningField: w.ReasoningField, cacheField: w.CacheField}
}

func (a *accumulator) add(chunk *streamChunk, onEvent func(Event)) {
	for i := range chunk.Choices {
		ch := &chunk.Choices[i]
		if ch.Index != 0 {
			continue
		}
		d := &ch.Delta
		if r := d.reasoningIn(a.reasoningField); r != "" {
			a.reasoning.WriteString(r)
			a.emitted = true
			onEvent(Event{Kind: EventReasoning, Text: r})
		}
		if d.Content != "" {
			a.content.WriteString(d.Content)
			a.emitted = true
			onEvent(Event{Kind: EventText, Text: d.Content})
		}
		for j := range d.ToolCalls {
			a.addToolCall(&d.ToolCalls[j])
		}
		if ch.FinishReason != "" {
			a.finish = ch.FinishReason
		}
		if ch.Usage != nil && chunk.Usage == nil {
			a.usage = ch.Usage.usageFrom(a.cacheField)
			a.gotUsage = true
		}
	}
	if chunk.Usage != nil {
		a.usage = chunk.Usage.usageFrom(a.cacheField)
		a.gotUsage = true
	}
}

func (a *accumulator) addToolCall(tc *chunkToolCall) {
	a.emitted = true
	pos, ok := a.byIndex[tc.Index]
	// Some servers reuse index 0 for every call and tell them apart only by
	// id; a new id at a known index starts a new call.
	if ok && tc.ID != "" && a.calls[pos].ID != "" && a.calls[pos].ID != tc.ID {
		ok = false
	}
	if !ok {
		a.calls = append(a.calls, &ToolCall{})
		pos = len(a.calls) - 1
		a.byIndex[tc.Index] = pos
	}
	call := a.calls[pos]
	if tc.ID != "" && call.ID == "" {
		call.ID = tc.ID
	}
	if x := tc.ExtraContent; len(x) > 0 && string(x) != "null" && call.Extra == "" {
		call.Extra = string(x)
	}
	// Names normally arrive whole in the first delta; some servers repeat
	// them in every delta, a few split them.
	if n := tc.Function.Name; n != "" && n != call.Name {
		call.Name += n
	}
	call.Arguments += tc.Function.Arguments
}

func (a *accumulator) complete() bool { return a.finish != "" }

func (a *accumulator) response() *Response {
	r := &Response{
		Content:          a.content.String(),
		ReasoningContent: a.reasoning.String(),
		FinishReason:     a.finish,
		Usage:            a.usage,
	}
	if r.FinishReason == "stop" && len(a.calls) > 0 {
		// Gemini's compatible endpoint ends a streamed tool-call reply
		// with "stop" (googleapis/python-genai#2868); the calls are what
		// the reply is, so say so.
		r.FinishReason = "tool_calls"
	}
	for i, c := range a.calls {
		tc := *c
		if tc.ID == "" {
			// The agent pairs results to calls by id; never hand it an empty one.
			tc.ID = fmt.Sprintf("call_%d", i)
		}
		if strings.TrimSpace(tc.Arguments) == "" {
			tc.Arguments = "{}"
		}
		r.ToolCalls = append(r.ToolCalls, tc)
	}
	return r
}
