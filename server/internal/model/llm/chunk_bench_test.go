package llm

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
)

// BenchmarkStreamDecode is the per-chunk decoding cost of a one-character
// content delta, the chunk a streaming reply is mostly made of, against
// openai-go's ChatCompletionChunk decoding of the same bytes as the
// reference. lean/sdk is the ratio of the two, measured in the same run.
func BenchmarkStreamDecode(b *testing.B) {
	data := []byte(`{"id":"chatcmpl-scripted-1","object":"chat.completion.chunk","created":1763830000,"model":"scripted-model","choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}` + "\n")
	var lean, sdk time.Duration
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		var c streamChunk
		if err := decodeChunk(data, &c); err != nil || c.Choices[0].Delta.Content != "a" {
			b.Fatalf("lean: %v", err)
		}
		lean += time.Since(t0)

		t1 := time.Now()
		var s openai.ChatCompletionChunk
		if err := json.Unmarshal(data, &s); err != nil || s.Choices[0].Delta.Content != "a" {
			b.Fatalf("sdk: %v", err)
		}
		sdk += time.Since(t1)
	}
	b.ReportMetric(float64(lean)/float64(b.N), "lean-ns/chunk")
	b.ReportMetric(float64(sdk)/float64(b.N), "sdk-ns/chunk")
	b.ReportMetric(float64(lean)/float64(sdk), "lean/sdk")
}
