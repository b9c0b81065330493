package scripted

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// Text and reasoning chunks from the fast path are byte-identical to the
// encoding/json rendering, for every kind of character a reply can hold.
func TestTextChunksMatchEncodingJSON(t *testing.T) {
	id, model, created := "chatcmpl-scripted-7", "deep<seek>&\"model\"", int64(1763830000)
	tc := newTextChunks(id, model, created)
	cases := []string{"a", " ", "hello world", "\"", "\\", "<", ">", "&", "\n", "\t", "\x00", "\x7f", "é", "😀",
		"\u2028", "\u2029", "\xff", "a\xffb", "mixed <b>&amp;</b> \"q\" \\ é\n"}
	pool := []rune("ab \"\\<>&\n\t\x01\x7féß中😀\u2028\u2029")
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 500; i++ {
		r := make([]rune, 1+rng.IntN(8))
		for j := range r {
			r[j] = pool[rng.IntN(len(pool))]
		}
		cases = append(cases, string(r))
	}
	for _, s := range cases {
		if got, want := tc.render(`{"content":`, s), renderChunk(id, model, created, map[string]any{"content": s}, nil); !bytes.Equal(got, want) {
			t.Fatalf("content %q:\n got %s\nwant %s", s, got, want)
		}
		got := tc.render(`{"content":null,"reasoning_content":`, s)
		want := renderChunk(id, model, created, map[string]any{"content": nil, "reasoning_content": s}, nil)
		if !bytes.Equal(got, want) {
			t.Fatalf("reasoning %q:\n got %s\nwant %s", s, got, want)
		}
	}
}

// A whole plan keeps its shape: role chunk, reasoning, text, tool calls,
// finish and usage, each text chunk carrying its piece.
func TestBuildStreamPlanShape(t *testing.T) {
	r := Reply{Reasoning: "think", Text: "héllo <you>", ChunkSize: 2,
		ToolCalls: []ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"p":1}`}}}
	p := buildStream("id", "m", 1, r, &Usage{PromptTokens: 3, CompletionTokens: 4})
	var texts []string
	for _, c := range p.chunks {
		texts = append(texts, string(c))
	}
	all := strings.Join(texts, "\n")
	// 1 role + 3 reasoning + 6 text + 1 tool start + 4 argument pieces + finish + usage.
	if len(p.chunks) != 1+3+6+1+4+1+1 {
		t.Fatalf("%d chunks:\n%s", len(p.chunks), all)
	}
	if !strings.Contains(texts[1], `"delta":{"content":null,"reasoning_content":"th"}`) ||
		!strings.Contains(texts[4], `"delta":{"content":"hé"}`) ||
		!strings.Contains(texts[7], `"delta":{"content":"\u003cy"}`) {
		t.Fatalf("chunks:\n%s", all)
	}
}

// BenchmarkBuildStream prepares a 10,000 one-character reply (rpcbench's)
// with the text fast path, against rendering every chunk through
// encoding/json as the reference. fast/json is the ratio of the two.
func BenchmarkBuildStream(b *testing.B) {
	r := Reply{Text: strings.Repeat("abcdefghij", 1000), ChunkSize: 1}
	u := &Usage{PromptTokens: 1000, CompletionTokens: 10000}
	var fast, ref float64
	for b.Loop() {
		start := time.Now()
		p := buildStream("chatcmpl-scripted-1", "scripted-model", 1763830000, r, u)
		fast += float64(time.Since(start))
		start = time.Now()
		for _, s := range splitRunes(r.Text, 1) {
			_ = renderChunk("chatcmpl-scripted-1", "scripted-model", 1763830000, map[string]any{"content": s}, nil)
		}
		ref += float64(time.Since(start))
		if len(p.chunks) != 10003 {
			b.Fatalf("%d chunks", len(p.chunks))
		}
	}
	b.ReportMetric(fast/float64(b.N)/1e6, "fast-ms/reply")
	b.ReportMetric(ref/float64(b.N)/1e6, "json-ms/reply")
	b.ReportMetric(fast/ref, "fast/json")
}
