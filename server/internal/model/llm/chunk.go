package llm

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/tidwall/gjson"
)

// streamChunk is the part of a chat.completion.chunk that GoVibe reads.
// openai-go's own ChatCompletionChunk decodes every field through a
// reflection-driven decoder that also records each field's raw JSON, which
// costs several times more than the rest of a delta's trip to the editor;
// a one-character delta does not need that.
//
// Provider dialects it covers: reasoning text as reasoning_content
// (DeepSeek, vLLM) or reasoning (OpenRouter, Ollama); cached prompt tokens
// as usage.prompt_tokens_details.cached_tokens (OpenAI),
// usage.prompt_cache_hit_tokens (DeepSeek) or usage.cached_tokens
// (Moonshot, whose usage sits inside the finish chunk's choice); null for
// any absent field.
//
// decodeChunk fills it; the json tags name the wire fields and define the
// encoding/json reading that decodeChunk is tested against.
type streamChunk struct {
	Choices []chunkChoice `json:"choices"`
	// Usage is nil unless the chunk carries a usage object (the final
	// chunk, when stream_options.include_usage is set).
	Usage *chunkUsage `json:"usage"`
}

type chunkChoice struct {
	Index        int64      `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason string     `json:"finish_reason"`
	// Usage is Moonshot's place for it: inside the finish chunk's choice
	// (choices[0].usage), not beside the choices.
	Usage *chunkUsage `json:"usage"`
}

type chunkDelta struct {
	Content          string          `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []chunkToolCall `json:"tool_calls"`
}

// reasoning returns the delta's thinking text in whichever field the
// provider uses.
func (d *chunkDelta) reasoning() string { return d.reasoningIn("") }

// reasoningIn returns the thinking text of the named field, falling back
// to the other known field when the named one is empty, or of either when
// field is empty. Naming the field matters when a server sends the same
// text under both names (vLLM kept "reasoning_content" as an alias while
// moving to "reasoning"): it is read once. The fallback keeps older
// servers of the same family working.
func (d *chunkDelta) reasoningIn(field string) string {
	first, second := d.ReasoningContent, d.Reasoning
	if field == "reasoning" {
		first, second = second, first
	}
	if first != "" {
		return first
	}
	return second
}

type chunkToolCall struct {
	// Index tells parallel calls apart; their argument deltas interleave.
	Index    int64  `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	// ExtraContent is Gemini's extra_content (the thought signature), kept
	// raw to be sent back.
	ExtraContent json.RawMessage `json:"extra_content"`
}

// decodeChunk decodes one SSE event's data into an empty c (fresh, or with
// its choices emptied and usage nil, as consume reuses it). It reads the
// event with gjson (which openai-go's own stream reader also uses) rather
// than encoding/json's reflection, which cost more per one-character delta
// than everything else on the delta's way to the editor, and it decodes
// exactly as encoding/json would into streamChunk, leniently as openai-go
// does: a field of an unexpected type (a provider sending reasoning as an
// object, say) is left empty and the rest of the chunk still counts.
// Malformed JSON is an error, which breaks the stream and is retried.
func decodeChunk(data []byte, c *streamChunk) error {
	if !gjson.ValidBytes(data) {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		return errors.New("malformed JSON in a stream event")
	}
	var failure string
	gjson.ParseBytes(data).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "choices":
			c.Choices = c.Choices[:0]
			eachElement(v, func(ch gjson.Result) {
				c.Choices = append(c.Choices, chunkChoice{})
				decodeChoice(ch, &c.Choices[len(c.Choices)-1])
			})
		case "usage":
			c.Usage = nil
			if v.IsObject() {
				c.Usage = &chunkUsage{}
				decodeUsage(v, c.Usage)
			}
		case "error":
			// Providers report a failure after the stream started as an
			// event with an error object.
			failure = ""
			if v.Type != gjson.Null {
				failure = v.Raw
			}
		}
		return true
	})
	if failure != "" {
		return &ssestream.StreamError{
			Message: "received error while streaming: " + failure,
			Event:   ssestream.Event{Data: data},
		}
	}
	return nil
}

func decodeChoice(v gjson.Result, ch *chunkChoice) {
	eachField(v, func(k string, v gjson.Result) {
		switch k {
		case "index":
			ch.Index = jsonInt(v, ch.Index)
		case "finish_reason":
			ch.FinishReason = jsonString(v, ch.FinishReason)
		case "usage":
			ch.Usage = nil
			if v.IsObject() {
				ch.Usage = &chunkUsage{}
				decodeUsage(v, ch.Usage)
			}
		case "delta":
			eachField(v, func(k string, v gjson.Result) {
				d := &ch.Delta
				switch k {
				case "content":
					d.Content = jsonString(v, d.Content)
				case "reasoning_content":
					d.ReasoningContent = jsonString(v, d.ReasoningContent)
				case "reasoning":
					d.Reasoning = jsonString(v, d.Reasoning)
				case "tool_calls":
					d.ToolCalls = d.ToolCalls[:0]
					eachElement(v, func(tv gjson.Result) {
						d.ToolCalls = append(d.ToolCalls, chunkToolCall{})
						decodeToolCall(tv, &d.ToolCalls[len(d.ToolCalls)-1])
					})
				}
			})
		}
	})
}

func decodeToolCall(v gjson.Result, tc *chunkToolCall) {
	eachField(v, func(k string, v gjson.Result) {
		switch k {
		case "index":
			tc.Index = jsonInt(v, tc.Index)
		case "id":
			tc.ID = jsonString(v, tc.ID)
		case "extra_content":
			// Raw, as encoding/json fills a RawMessage (null included).
			tc.ExtraContent = json.RawMessage(v.Raw)
		case "function":
			eachField(v, func(k string, v gjson.Result) {
				switch k {
				case "name":
					tc.Function.Name = jsonString(v, tc.Function.Name)
				case "arguments":
					tc.Function.Arguments = jsonString(v, tc.Function.Arguments)
				}
			})
		}
	})
}

// eachField calls fn for every member of an object; anything else, null
// included, leaves the target as it is (encoding/json's rule).
func eachField(v gjson.Result, fn func(k string, v gjson.Result)) {
	if !v.IsObject() {
		return
	}
	v.ForEach(func(k, v gjson.Result) bool {
		fn(k.Str, v)
		return true
	})
}

// eachElement calls fn for every element of an array.
func eachElement(v gjson.Result, fn func(v gjson.Result)) {
	if !v.IsArray() {
		return
	}
	v.ForEach(func(_, v gjson.Result) bool {
		fn(v)
		return true
	})
}

// jsonString is v's string value, or old when v is null or not a string.
// Text with invalid UTF-8 takes encoding/json's path, which replaces it
// with U+FFFD as every other decoder in GoVibe does.
func jsonString(v gjson.Result, old string) string {
	if v.Type != gjson.String {
		return old
	}
	if !utf8.ValidString(v.Str) {
		var s string
		if json.Unmarshal([]byte(v.Raw), &s) == nil {
			return s
		}
	}
	return v.Str
}

// jsonInt is v's value when v is an integer that fits int64, else old.
func jsonInt(v gjson.Result, old int64) int64 {
	if v.Type != gjson.Number {
		return old
	}
	n, err := strconv.ParseInt(v.Raw, 10, 64)
	if err != nil {
		return old
	}
	return n
}
