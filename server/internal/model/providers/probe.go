package providers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/tidwall/gjson"
)

// ProbeResult is what one one-token request showed about an endpoint.
type ProbeResult struct {
	Model     string `json:"model"`
	Streaming bool   `json:"streaming"` // answered with SSE chunks
	Tools     bool   `json:"tools"`     // accepted a request offering a tool
	Usage     bool   `json:"usage"`     // sent a usage object
	Cached    bool   `json:"cached"`    // usage carried the preset's cache field
	Reasoning bool   `json:"reasoning"` // sent a reasoning field or reasoning tokens
	// ToolsError is the endpoint's refusal of tools, when it refused; the
	// probe then retried without tools.
	ToolsError string `json:"toolsError,omitempty"`
}

// probeTool is the smallest valid tool definition; the probe only checks
// that the endpoint accepts "tools", not that the model calls it.
var probeTool = []map[string]any{{
	"type": "function",
	"function": map[string]any{
		"name":        "noop",
		"description": "Does nothing.",
		"parameters":  map[string]any{"type": "object", "properties": map[string]any{}},
	},
}}

func (e Endpoint) probeBody(model string, withTools bool) []byte {
	req := map[string]any{
		"model":      model,
		"messages":   []map[string]string{{"role": "user", "content": "Say OK."}},
		"max_tokens": 1,
		"stream":     true,
	}
	if e.Preset.IncludeUsage {
		req["stream_options"] = map[string]any{"include_usage": true}
	}
	if withTools {
		req["tools"] = probeTool
	}
	b, _ := json.Marshal(req)
	return b
}

// Probe sends one streaming one-token request offering a tool. A 400 that
// is about tools is retried once without them, so "tools: no" is reported
// rather than a failure. Any other error is returned classified.
func (e Endpoint) Probe(ctx context.Context, model string) (ProbeResult, error) {
	res := ProbeResult{Model: model}
	withTools := e.Preset.Tools
	for attempt := 0; attempt < 2; attempt++ {
		err := e.probeOnce(ctx, model, withTools, &res)
		if err == nil {
			res.Tools = withTools
			return res, nil
		}
		perr, ok := err.(*Error)
		if !ok || !withTools || perr.Status != http.StatusBadRequest || !strings.Contains(strings.ToLower(perr.Detail), "tool") {
			return res, err
		}
		res.ToolsError = perr.Detail
		withTools = false
	}
	return res, nil
}

func (e Endpoint) probeOnce(ctx context.Context, model string, withTools bool, res *ProbeResult) error {
	req, err := e.newRequest(ctx, http.MethodPost, "/chat/completions", bytes.NewReader(e.probeBody(model, withTools)))
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := e.client().Do(req)
	if err != nil {
		return &Error{Kind: KindUnreachable, Detail: err.Error()}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return Classify(resp.StatusCode, body)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// A non-streaming answer still tells usage and reasoning.
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		e.observe(gjson.ParseBytes(body), "message", res)
		return nil
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "data:") {
			continue
		}
		data := strings.TrimSpace(strings.TrimPrefix(line, "data:"))
		if data == "[DONE]" {
			break
		}
		res.Streaming = true
		chunk := gjson.Parse(data)
		if msg := chunk.Get("error.message"); msg.Exists() {
			return Classify(http.StatusBadRequest, []byte(data))
		}
		e.observe(chunk, "delta", res)
	}
	if err := sc.Err(); err != nil {
		return &Error{Kind: KindUnreachable, Detail: err.Error()}
	}
	return nil
}

// observe notes usage, the cache field and reasoning in one chunk (or
// whole answer, where the choice's field is "message").
func (e Endpoint) observe(chunk gjson.Result, field string, res *ProbeResult) {
	if u := chunk.Get("usage"); u.IsObject() {
		res.Usage = true
		if e.Preset.CacheField != "" && u.Get(e.Preset.CacheField).Exists() {
			res.Cached = true
		}
		if u.Get("completion_tokens_details.reasoning_tokens").Int() > 0 {
			res.Reasoning = true
		}
	}
	for _, f := range []string{"reasoning_content", "reasoning"} {
		if chunk.Get("choices.0."+field+"."+f).String() != "" {
			res.Reasoning = true
		}
	}
}
