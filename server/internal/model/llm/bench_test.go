package llm_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// BenchmarkStreamVsRawSSE measures the client's per-stream cost (openai-go
// decoding, accumulation, watchdog, events) against the floor: reading the
// same SSE bytes from the same server with a bare HTTP client. The
// client/raw metric is the ratio of the two, measured in the same run.
func BenchmarkStreamVsRawSSE(b *testing.B) {
	srv := scripted.Start(b)
	reply := scripted.Reply{
		Reasoning: strings.Repeat("thinking about it ", 100),
		Text:      strings.Repeat("lorem ipsum dolor ", 300),
		ToolCalls: []scripted.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"` + strings.Repeat("a/", 50) + `x.go"}`}},
		ChunkSize: 8,
	}
	srv.SetHandler(func(*scripted.RecordedRequest) scripted.Reply { return reply })
	c := newClient(b, srv.URL(), nil)
	req := userReq("bench")
	rawBody := `{"model":"test-model","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"bench"}]}`
	hc := &http.Client{}

	var raw, client time.Duration
	for b.Loop() {
		t0 := time.Now()
		res, err := hc.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(rawBody))
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(res.Body)
		lines := 0
		for sc.Scan() {
			lines++
		}
		res.Body.Close()
		if lines < 100 {
			b.Fatalf("raw stream had %d lines", lines)
		}
		raw += time.Since(t0)

		t1 := time.Now()
		resp, err := c.Stream(context.Background(), req, func(llm.Event) {})
		if err != nil || len(resp.ToolCalls) != 1 {
			b.Fatalf("stream: %v", err)
		}
		client += time.Since(t1)
	}
	b.ReportMetric(float64(client)/float64(raw), "client/raw")
}
