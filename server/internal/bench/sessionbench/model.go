package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
)

// fakeModel is a minimal OpenAI-compatible streaming endpoint for the long
// session. Unlike the scripted model it records nothing, so the benchmark
// process does not grow with the session's ten thousand requests.
type fakeModel struct {
	srv     *http.Server
	url     string
	answer  func(req modelRequest) modelReply
	callSeq atomic.Int64
}

type modelMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

type modelRequest struct {
	Messages []modelMessage `json:"messages"`
	size     int
}

// text is a message's content as a string (string or array of parts).
func (m modelMessage) text() string {
	switch c := m.Content.(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, p := range c {
			if part, ok := p.(map[string]any); ok {
				if s, ok := part["text"].(string); ok {
					b.WriteString(s)
				}
			}
		}
		return b.String()
	}
	return ""
}

type modelReply struct {
	text     string
	toolName string
	toolArgs string
}

func startFakeModel(answer func(modelRequest) modelReply) (*fakeModel, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &fakeModel{answer: answer, url: "http://" + ln.Addr().String() + "/v1"}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", m.serve)
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"scripted-model","object":"model"}]}`))
	})
	m.srv = &http.Server{Handler: mux}
	go func() { _ = m.srv.Serve(ln) }()
	return m, nil
}

func (m *fakeModel) close() { _ = m.srv.Close() }

func (m *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	var req modelRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<20))
	if err := dec.Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.size = int(dec.InputOffset())
	rep := m.answer(req)
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any, usage any) {
		c := map[string]any{"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 0, "model": "scripted-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	finish := "stop"
	if rep.toolName != "" {
		finish = "tool_calls"
		id := fmt.Sprintf("call_%d", m.callSeq.Add(1))
		chunk(map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"index": 0, "id": id, "type": "function",
			"function": map[string]any{"name": rep.toolName, "arguments": rep.toolArgs}}}}, nil, nil)
	} else {
		chunk(map[string]any{"role": "assistant", "content": rep.text}, nil, nil)
	}
	// Prompt tokens as a provider would count them (about four bytes a
	// token), so the sidecar's context bar and compaction see real sizes.
	prompt := req.size / 4
	chunk(map[string]any{}, finish, map[string]any{"prompt_tokens": prompt, "completion_tokens": 5, "total_tokens": prompt + 5})
	fmt.Fprint(w, "data: [DONE]\n\n")
}
