package scripted

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

type chatBody struct {
	Model         string           `json:"model"`
	Stream        bool             `json:"stream"`
	StreamOptions map[string]bool  `json:"stream_options,omitempty"`
	Messages      []map[string]any `json:"messages"`
	Tools         []map[string]any `json:"tools,omitempty"`
}

func post(t *testing.T, s *Server, session string, body any) *http.Response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/chat/completions", bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer sk-recorded-never")
	req.Header.Set("Content-Type", "application/json")
	if session != "" {
		req.Header.Set(SessionHeader, session)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func sseData(t *testing.T, r io.Reader) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "data: ") {
			t.Fatalf("unexpected SSE line %q", line)
		}
		out = append(out, strings.TrimPrefix(line, "data: "))
	}
	return out
}

func user(text string) map[string]any { return map[string]any{"role": "user", "content": text} }

func TestStreamsLikeARealProvider(t *testing.T) {
	s := Start(t, Reply{
		Reasoning: "think", Text: "héllo wörld", ChunkSize: 4,
		ToolCalls: []ToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"main.go"}`}},
		Usage:     &Usage{PromptTokens: 100, CompletionTokens: 20, CachedTokens: 64},
	})
	res := post(t, s, "", chatBody{Model: "m", Stream: true, StreamOptions: map[string]bool{"include_usage": true},
		Messages: []map[string]any{user("hi")}})
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	data := sseData(t, res.Body)
	if data[len(data)-1] != "[DONE]" {
		t.Fatalf("last event %q", data[len(data)-1])
	}
	type chunk struct {
		Object  string `json:"object"`
		Choices []struct {
			Delta        map[string]json.RawMessage `json:"delta"`
			FinishReason *string                    `json:"finish_reason"`
		} `json:"choices"`
		Usage map[string]any `json:"usage"`
	}
	var chunks []chunk
	for _, d := range data[:len(data)-1] {
		var c chunk
		if err := json.Unmarshal([]byte(d), &c); err != nil {
			t.Fatalf("chunk %q: %v", d, err)
		}
		if c.Object != "chat.completion.chunk" {
			t.Fatalf("object %q", c.Object)
		}
		chunks = append(chunks, c)
	}
	if string(chunks[0].Choices[0].Delta["role"]) != `"assistant"` {
		t.Fatalf("first chunk is not the role chunk: %+v", chunks[0])
	}
	var reasoning, text, args strings.Builder
	firstToolChunk := -1
	argChunks := 0
	for i, c := range chunks[1:] {
		if len(c.Choices) == 0 {
			continue
		}
		d := c.Choices[0].Delta
		var r, s string
		if json.Unmarshal(d["reasoning_content"], &r) == nil {
			reasoning.WriteString(r)
		}
		if json.Unmarshal(d["content"], &s) == nil {
			text.WriteString(s)
		}
		if raw, ok := d["tool_calls"]; ok {
			var tcs []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      *string `json:"name"`
					Arguments string  `json:"arguments"`
				} `json:"function"`
			}
			if err := json.Unmarshal(raw, &tcs); err != nil {
				t.Fatal(err)
			}
			if firstToolChunk < 0 {
				firstToolChunk = i
				if tcs[0].ID != "call_1" || tcs[0].Function.Name == nil || *tcs[0].Function.Name != "read_file" {
					t.Fatalf("first tool chunk lacks id/name: %s", raw)
				}
			} else if tcs[0].ID != "" || tcs[0].Function.Name != nil {
				t.Fatalf("later tool chunk repeats id/name: %s", raw)
			}
			if tcs[0].Function.Arguments != "" {
				argChunks++
			}
			args.WriteString(tcs[0].Function.Arguments)
		}
	}
	if reasoning.String() != "think" || text.String() != "héllo wörld" || args.String() != `{"path":"main.go"}` {
		t.Fatalf("reassembled reasoning %q text %q args %q", reasoning.String(), text.String(), args.String())
	}
	if argChunks < 3 {
		t.Fatalf("arguments came in %d chunks, want them split", argChunks)
	}
	fin := chunks[len(chunks)-2]
	if fin.Choices[0].FinishReason == nil || *fin.Choices[0].FinishReason != "tool_calls" {
		t.Fatalf("finish chunk %+v", fin)
	}
	u := chunks[len(chunks)-1]
	if len(u.Choices) != 0 || u.Usage["prompt_cache_hit_tokens"] != float64(64) ||
		u.Usage["prompt_tokens_details"].(map[string]any)["cached_tokens"] != float64(64) || u.Usage["prompt_cache_miss_tokens"] != float64(36) {
		t.Fatalf("usage chunk %+v", u)
	}
	rec := s.Requests()[0]
	if !rec.HasAuth || rec.Headers["Authorization"] != "[redacted]" || strings.Contains(string(mustJSON(t, rec)), "sk-recorded-never") {
		t.Fatalf("authorization not redacted: %+v", rec.Headers)
	}
	if rec.Outcome != "ok" || rec.Reply == nil || rec.Reply.Text != "héllo wörld" {
		t.Fatalf("record %+v", rec)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNonStreamingAnswer(t *testing.T) {
	s := Start(t, Reply{Reasoning: "r", Text: "plain", Usage: &Usage{PromptTokens: 10, CompletionTokens: 2, CachedTokens: 5, CacheFields: CacheFieldsOpenAI}})
	res := post(t, s, "", chatBody{Model: "m", Messages: []map[string]any{user("hi")}})
	var v struct {
		Object  string `json:"object"`
		Choices []struct {
			Message struct {
				Content          string `json:"content"`
				ReasoningContent string `json:"reasoning_content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage map[string]any `json:"usage"`
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	if v.Object != "chat.completion" || v.Choices[0].Message.Content != "plain" || v.Choices[0].Message.ReasoningContent != "r" || v.Choices[0].FinishReason != "stop" {
		t.Fatalf("%+v", v)
	}
	if _, ok := v.Usage["prompt_cache_hit_tokens"]; ok {
		t.Fatalf("openai-only usage has DeepSeek field: %v", v.Usage)
	}
}

func TestToolPairingInvariants(t *testing.T) {
	asst := func(ids ...string) map[string]any {
		var calls []any
		for _, id := range ids {
			calls = append(calls, map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "f", "arguments": "{}"}})
		}
		return map[string]any{"role": "assistant", "content": nil, "tool_calls": calls}
	}
	tool := func(id string) map[string]any {
		return map[string]any{"role": "tool", "tool_call_id": id, "content": "r"}
	}
	cases := []struct {
		name string
		msgs []map[string]any
		want string // substring of the single violation; "" = valid
	}{
		{"valid", []map[string]any{user("a"), asst("1", "2"), tool("2"), tool("1"), user("b")}, ""},
		{"orphan tool", []map[string]any{user("a"), tool("9")}, `"9" does not answer`},
		{"unanswered before user", []map[string]any{user("a"), asst("1", "2"), tool("1"), user("b")}, `"2" has no tool result before message 3 (user)`},
		{"unanswered at end", []map[string]any{user("a"), asst("1")}, `"1" has no tool result before the end`},
		{"answered twice", []map[string]any{user("a"), asst("1"), tool("1"), tool("1")}, "answered twice"},
		{"answer after a user message", []map[string]any{user("a"), asst("1"), user("b"), tool("1")}, "has no tool result"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, Reply{Text: "ok"})
			res := post(t, s, "", chatBody{Model: "m", Messages: tc.msgs})
			v := s.Violations()
			if tc.want == "" {
				if res.StatusCode != 200 || len(v) != 0 {
					t.Fatalf("status %d violations %v", res.StatusCode, v)
				}
				return
			}
			if res.StatusCode != 400 || len(v) == 0 || !strings.Contains(v[0], tc.want) {
				t.Fatalf("status %d violations %v, want %q", res.StatusCode, v, tc.want)
			}
			body, _ := io.ReadAll(res.Body)
			if !strings.Contains(string(body), "invalid_request_error") {
				t.Fatalf("body %s", body)
			}
			if s.Pending() != 1 {
				t.Fatal("a rejected request consumed the queued reply")
			}
		})
	}
}

func TestPrefixStatsPerSession(t *testing.T) {
	s := Start(t)
	first := []map[string]any{{"role": "system", "content": "sys " + strings.Repeat("x", 400)}, user("one")}
	post(t, s, "A", chatBody{Model: "m", Stream: true, Messages: first})
	second := append(append([]map[string]any{}, first...), map[string]any{"role": "assistant", "content": "ans"}, user("two"))
	post(t, s, "A", chatBody{Model: "m", Stream: true, StreamOptions: map[string]bool{"include_usage": true}, Messages: second})
	post(t, s, "B", chatBody{Model: "m", Stream: true, Messages: second})
	st := s.PrefixStats()
	if st[0].PrevChars != 0 || st[0].CommonChars != 0 {
		t.Fatalf("first request stats %+v", st[0])
	}
	// The canonical arrays differ first at the "]" that closed the first one.
	if st[1].PrevChars != st[0].Chars || st[1].CommonChars != st[0].Chars-1 || st[1].CommonTokens != (st[0].Chars-1)/4 {
		t.Fatalf("second request stats %+v (first %+v)", st[1], st[0])
	}
	if st[2].CommonChars != 0 {
		t.Fatalf("another session shared a prefix: %+v", st[2])
	}
}

func TestFaultsScheduledPerAttempt(t *testing.T) {
	s := Start(t)
	s.SetHandler(func(r *RecordedRequest) Reply {
		return Reply{Text: "attempt " + string(rune('0'+r.Attempt)), Faults: []Fault{Status429("2"), Status500()}}
	})
	body := chatBody{Model: "m", Messages: []map[string]any{user("same")}}
	r1 := post(t, s, "S", body)
	r2 := post(t, s, "S", body)
	r3 := post(t, s, "S", body)
	if r1.StatusCode != 429 || r1.Header.Get("Retry-After") != "2" || r2.StatusCode != 500 || r3.StatusCode != 200 {
		t.Fatalf("statuses %d %d %d", r1.StatusCode, r2.StatusCode, r3.StatusCode)
	}
	b, _ := io.ReadAll(r3.Body)
	if !strings.Contains(string(b), "attempt 3") {
		t.Fatalf("third attempt body %s", b)
	}
	// A different body starts over at attempt 1.
	r4 := post(t, s, "S", chatBody{Model: "m", Messages: []map[string]any{user("new")}})
	if r4.StatusCode != 429 {
		t.Fatalf("new request status %d", r4.StatusCode)
	}
	got := []int{}
	for _, r := range s.Requests() {
		got = append(got, r.Attempt)
	}
	if want := []int{1, 2, 3, 1}; !equalInts(got, want) {
		t.Fatalf("attempts %v, want %v", got, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestResetFaultBreaksTheBody(t *testing.T) {
	s := Start(t, Reply{Text: strings.Repeat("abc", 20), Faults: []Fault{ResetAfter(2)}})
	res := post(t, s, "", chatBody{Model: "m", Stream: true, Messages: []map[string]any{user("x")}})
	b, err := io.ReadAll(res.Body)
	if err == nil {
		t.Fatalf("body ended cleanly after reset: %q", b)
	}
	if n := strings.Count(string(b), "data: "); n != 2 {
		t.Fatalf("%d chunks before the reset, want 2", n)
	}
	if s.Pending() != 1 {
		t.Fatal("a faulted attempt consumed the reply")
	}
}

func TestNoDoneFaultEndsCleanlyButEarly(t *testing.T) {
	s := Start(t, Reply{Text: strings.Repeat("abc", 20), Faults: []Fault{NoDoneAfter(3)}})
	res := post(t, s, "", chatBody{Model: "m", Stream: true, Messages: []map[string]any{user("x")}})
	data := sseData(t, res.Body)
	if len(data) != 3 || strings.Contains(strings.Join(data, ""), "finish_reason\":\"") || data[2] == "[DONE]" {
		t.Fatalf("events %v", data)
	}
}

func TestCloseReleasesHungStream(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	s.Enqueue(Reply{Text: "x", Faults: []Fault{HangAfter(1)}})
	done := make(chan error, 1)
	go func() {
		b, _ := json.Marshal(chatBody{Model: "m", Stream: true, Messages: []map[string]any{user("x")}})
		res, err := http.Post(s.URL()+"/chat/completions", "application/json", bytes.NewReader(b))
		if err == nil {
			_, err = io.ReadAll(res.Body)
			res.Body.Close()
		}
		done <- err
	}()
	for len(s.Requests()) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	s.Close()
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("Close took %s", d)
	}
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("client still blocked after Close")
	}
	if rec := s.Requests()[0]; rec.Outcome != "hang" {
		t.Fatalf("outcome %q", rec.Outcome)
	}
}

func TestListenOnlyLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "10.1.2.3:0", "nonsense"} {
		if s, err := Listen(addr); err == nil {
			s.Close()
			t.Fatalf("Listen(%q) accepted a non-loopback address", addr)
		}
	}
}

func TestInvalidBodyAndInvalidReply(t *testing.T) {
	s := Start(t, Reply{ToolCalls: []ToolCall{{Name: "f", Arguments: "{not json"}}})
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/chat/completions", strings.NewReader("{broken"))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 || s.Requests()[0].Outcome != "rejected" {
		t.Fatalf("status %d", res.StatusCode)
	}
	res2 := post(t, s, "", chatBody{Model: "m", Messages: []map[string]any{user("x")}})
	b, _ := io.ReadAll(res2.Body)
	if res2.StatusCode != 500 || !strings.Contains(string(b), "arguments are not valid JSON") {
		t.Fatalf("status %d body %s", res2.StatusCode, b)
	}
}
