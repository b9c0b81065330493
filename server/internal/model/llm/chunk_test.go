package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// chunkSamples are chat.completion.chunk payloads as providers send them.
var chunkSamples = map[string]string{
	"openai role":                        `{"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}`,
	"openai text":                        `{"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt","choices":[{"index":0,"delta":{"content":"Hel"},"logprobs":null,"finish_reason":null}]}`,
	"deepseek think":                     `{"id":"c","object":"chat.completion.chunk","created":1,"model":"deepseek-reasoner","system_fingerprint":"fp","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"Let me"},"logprobs":null,"finish_reason":null}]}`,
	"openrouter think":                   `{"id":"c","provider":"x","model":"m","object":"chat.completion.chunk","created":1,"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"hmm"},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}`,
	"both reasoning":                     `{"choices":[{"index":0,"delta":{"reasoning_content":"first","reasoning":"second"}}]}`,
	"empty reasoning_content falls back": `{"choices":[{"index":0,"delta":{"reasoning_content":"","reasoning":"second"}}]}`,
	"tool start":                         `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"read_file","arguments":""}}]},"finish_reason":null}]}`,
	"tool args":                          `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"pa"}},{"index":0,"function":{"arguments":"th\":1}"}}]}}]}`,
	"tool null fields":                   `{"choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"index":0,"id":null,"type":null,"function":{"name":null,"arguments":"x"}}]}}]}`,
	"finish":                             `{"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}`,
	"second choice":                      `{"choices":[{"index":1,"delta":{"content":"ignored"},"finish_reason":"stop"}]}`,
	"usage both":                         `{"choices":[],"usage":{"prompt_tokens":1200,"completion_tokens":30,"total_tokens":1230,"prompt_tokens_details":{"cached_tokens":1024},"completion_tokens_details":{"reasoning_tokens":6},"prompt_cache_hit_tokens":1024,"prompt_cache_miss_tokens":176}}`,
	"usage deepseek":                     `{"choices":[],"usage":{"prompt_tokens":1200,"completion_tokens":30,"total_tokens":1230,"prompt_cache_hit_tokens":1000,"prompt_cache_miss_tokens":200}}`,
	"usage null":                         `{"choices":[{"index":0,"delta":{"content":"x"}}],"usage":null}`,
	"usage empty":                        `{"choices":[],"usage":{}}`,
	"choices null":                       `{"id":"c","choices":null}`,
	"unicode":                            `{"choices":[{"index":0,"delta":{"content":"\u00e9\ud83d\ude00<>&\n"}}]}`,
}

// facts is what the accumulator takes from a chunk.
type facts struct {
	Reasoning, Content, Finish string
	Calls                      []string
	Usage                      *Usage
}

func leanFacts(t *testing.T, raw string) facts {
	t.Helper()
	var c streamChunk
	if err := decodeChunk([]byte(raw), &c); err != nil {
		t.Fatalf("lean decode: %v", err)
	}
	var f facts
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		f.Reasoning += ch.Delta.reasoning()
		f.Content += ch.Delta.Content
		for _, tc := range ch.Delta.ToolCalls {
			f.Calls = append(f.Calls, string(rune('0'+tc.Index))+"|"+tc.ID+"|"+tc.Function.Name+"|"+tc.Function.Arguments)
		}
		if ch.FinishReason != "" {
			f.Finish = ch.FinishReason
		}
	}
	if c.Usage != nil {
		u := c.Usage.usage()
		f.Usage = &u
	}
	return f
}

// sdkFacts reads the same facts through openai-go's ChatCompletionChunk,
// the way the client did before it decoded chunks itself.
func sdkFacts(t *testing.T, raw string) facts {
	t.Helper()
	var c openai.ChatCompletionChunk
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		t.Fatalf("openai-go decode: %v", err)
	}
	var f facts
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		for _, k := range []string{"reasoning_content", "reasoning"} {
			var s string
			if fl, ok := ch.Delta.JSON.ExtraFields[k]; ok && json.Unmarshal([]byte(fl.Raw()), &s) == nil && s != "" {
				f.Reasoning += s
				break
			}
		}
		f.Content += ch.Delta.Content
		for _, tc := range ch.Delta.ToolCalls {
			f.Calls = append(f.Calls, string(rune('0'+tc.Index))+"|"+tc.ID+"|"+tc.Function.Name+"|"+tc.Function.Arguments)
		}
		if ch.FinishReason != "" {
			f.Finish = ch.FinishReason
		}
	}
	if c.JSON.Usage.Valid() {
		u := Usage{
			PromptTokens:     c.Usage.PromptTokens,
			CompletionTokens: c.Usage.CompletionTokens,
			CachedTokens:     c.Usage.PromptTokensDetails.CachedTokens,
			ReasoningTokens:  c.Usage.CompletionTokensDetails.ReasoningTokens,
		}
		reported := c.Usage.PromptTokensDetails.JSON.CachedTokens.Valid()
		if u.CachedTokens == 0 {
			if fl, ok := c.Usage.JSON.ExtraFields["prompt_cache_hit_tokens"]; ok && fl.Raw() != "null" {
				reported = true
				_ = json.Unmarshal([]byte(fl.Raw()), &u.CachedTokens)
			}
		}
		if u.CachedTokens == 0 {
			if fl, ok := c.Usage.JSON.ExtraFields["cached_tokens"]; ok && fl.Raw() != "null" {
				reported = true
				_ = json.Unmarshal([]byte(fl.Raw()), &u.CachedTokens)
			}
		}
		if reported {
			// The provider said how much hit: the whole prompt's figure is known.
			u.CacheReportedTokens = u.PromptTokens
		}
		f.Usage = &u
	}
	return f
}

// The lean decoder must read every sample exactly as openai-go's chunk
// type does.
func TestStreamChunkMatchesOpenAIDecoding(t *testing.T) {
	for name, raw := range chunkSamples {
		t.Run(name, func(t *testing.T) {
			got, want := leanFacts(t, raw), sdkFacts(t, raw)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("lean %+v\nsdk  %+v", got, want)
			}
		})
	}
	// Spot-check the samples say what they are meant to.
	if f := leanFacts(t, chunkSamples["usage deepseek"]); f.Usage == nil || f.Usage.CachedTokens != 1000 {
		t.Fatalf("DeepSeek cache field: %+v", f.Usage)
	}
	if f := leanFacts(t, chunkSamples["both reasoning"]); f.Reasoning != "first" {
		t.Fatalf("reasoning_content must win: %q", f.Reasoning)
	}
	if f := leanFacts(t, chunkSamples["tool args"]); len(f.Calls) != 2 || f.Calls[0] != `1|||{"pa` {
		t.Fatalf("tool deltas by index: %q", f.Calls)
	}
	if f := leanFacts(t, chunkSamples["usage null"]); f.Usage != nil || f.Content != "x" {
		t.Fatalf("usage null: %+v", f)
	}
}

// A field of an unexpected type is dropped, not fatal: the rest of the
// chunk (here the text) still arrives. Broken JSON is an error.
func TestStreamChunkLenientOnTypesStrictOnSyntax(t *testing.T) {
	var c streamChunk
	raw := `{"choices":[{"index":0,"delta":{"reasoning":{"summary":"obj"},"content":"kept"},"finish_reason":null}],"usage":{"prompt_tokens":"12","completion_tokens":3}}`
	if err := decodeChunk([]byte(raw), &c); err != nil {
		t.Fatalf("type mismatch must not fail the chunk: %v", err)
	}
	if len(c.Choices) != 1 || c.Choices[0].Delta.Content != "kept" || c.Choices[0].Delta.reasoning() != "" {
		t.Fatalf("decoded %+v", c)
	}
	if c.Usage == nil || c.Usage.CompletionTokens != 3 || c.Usage.PromptTokens != 0 {
		t.Fatalf("usage %+v", c.Usage)
	}
	for _, bad := range []string{`{"choices":[{"index":0,"delta":{"content":"x"}}`, `{"choices":[{]}`, `data`} {
		var c streamChunk
		if err := decodeChunk([]byte(bad), &c); err == nil {
			t.Errorf("malformed %q decoded without error", bad)
		}
	}
}

// An error event ends the stream with the provider's message; an explicit
// null error is no error.
func TestStreamChunkErrorEvent(t *testing.T) {
	var c streamChunk
	err := decodeChunk([]byte(`{"error":{"message":"Overloaded","type":"server_error"}}`), &c)
	var se *ssestream.StreamError
	if !errors.As(err, &se) || !strings.Contains(se.Message, "Overloaded") {
		t.Fatalf("error event: %v", err)
	}
	c = streamChunk{}
	if err := decodeChunk([]byte(`{"error":null,"choices":[{"index":0,"delta":{"content":"ok"}}]}`), &c); err != nil || c.Choices[0].Delta.Content != "ok" {
		t.Fatalf("null error: %v %+v", err, c)
	}
}

// refDecode is the encoding/json reading of a chunk that decodeChunk must
// reproduce: the same struct, type mismatches left empty.
func refDecode(data []byte) (streamChunk, error) {
	var c streamChunk
	err := json.Unmarshal(data, &c)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		err = nil
	}
	return c, err
}

// normalise treats empty and nil slices alike.
func normalise(c streamChunk) streamChunk {
	if len(c.Choices) == 0 {
		c.Choices = nil
	}
	for i := range c.Choices {
		if len(c.Choices[i].Delta.ToolCalls) == 0 {
			c.Choices[i].Delta.ToolCalls = nil
		}
	}
	return c
}

// decodeChunk must agree with encoding/json on generated chunks full of
// escapes, odd Unicode, invalid UTF-8, nulls and values of the wrong type.
func TestDecodeChunkAgreesWithEncodingJSON(t *testing.T) {
	strs := []string{`"a"`, `""`, `"\"q\" \\ \/"`, `"\u00e9\u4e2d"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\udc00x"`,
		`"\n\t\r\b\f"`, `"\u2028<>&"`, "\"raw \xff bytes\"", "\"é中😀\"", `"\u0000"`}
	others := []string{`null`, `0`, `7`, `-3`, `1.5`, `1e3`, `99999999999999999999`, `true`, `{}`, `{"a":1}`, `[]`, `["x"]`}
	rng := rand.New(rand.NewPCG(3, 4))
	val := func(wantStr bool) string {
		if rng.IntN(4) == 0 {
			return others[rng.IntN(len(others))]
		}
		if wantStr {
			return strs[rng.IntN(len(strs))]
		}
		return []string{`0`, `1`, `2`, `42`}[rng.IntN(4)]
	}
	for i := 0; i < 3000; i++ {
		tool := fmt.Sprintf(`{"index":%s,"id":%s,"type":"function","function":{"name":%s,"arguments":%s},"extra_content":%s}`,
			val(false), val(true), val(true), val(true), val(true))
		delta := fmt.Sprintf(`{"role":"assistant","content":%s,"reasoning_content":%s,"reasoning":%s,"tool_calls":[%s]}`,
			val(true), val(true), val(true), tool)
		if rng.IntN(5) == 0 {
			delta = others[rng.IntN(len(others))]
		}
		usage := fmt.Sprintf(`{"prompt_tokens":%s,"completion_tokens":%s,"prompt_tokens_details":{"cached_tokens":%s},"completion_tokens_details":{"reasoning_tokens":%s},"prompt_cache_hit_tokens":%s}`,
			val(false), val(false), val(false), val(false), val(false))
		if rng.IntN(3) == 0 {
			usage = `null`
		}
		data := fmt.Sprintf(`{"id":"c","choices":[{"index":%s,"delta":%s,"logprobs":null,"finish_reason":%s}],"usage":%s}`,
			val(false), delta, val(true), usage)
		want, werr := refDecode([]byte(data))
		var got streamChunk
		gerr := decodeChunk([]byte(data), &got)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s\nencoding/json error %v, decodeChunk error %v", data, werr, gerr)
		}
		if !reflect.DeepEqual(normalise(got), normalise(want)) {
			t.Fatalf("%s\n got %+v\nwant %+v", data, got, want)
		}
	}
}
