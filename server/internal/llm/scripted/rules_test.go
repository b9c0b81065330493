package scripted

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

const script = `{
  "rules": [
    {"match": "read main", "on": "user", "reply": {"tool_calls": [{"name": "read_file", "arguments": "{\"path\":\"main.go\"}"}]}},
    {"match": "package main", "on": "tool", "reply": {"text": "It is a Go program.", "chunk_delay_ms": 1}}
  ],
  "default": {"text": "default answer"}
}`

func TestParseRulesAndMatch(t *testing.T) {
	r, err := ParseRules([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	if r.Rules[1].Reply.ChunkDelay != time.Millisecond {
		t.Fatalf("chunk_delay_ms not decoded: %v", r.Rules[1].Reply.ChunkDelay)
	}
	req := func(msgs ...Message) *RecordedRequest { return &RecordedRequest{Messages: msgs} }
	got := r.Reply(req(Message{Role: "user", Content: "please read main now"}))
	if len(got.ToolCalls) != 1 || got.ToolCalls[0].Name != "read_file" {
		t.Fatalf("user rule: %+v", got)
	}
	got = r.Reply(req(
		Message{Role: "user", Content: "please read main now"},
		Message{Role: "assistant", ToolCalls: []ToolCall{{ID: "c", Name: "read_file"}}},
		Message{Role: "tool", ToolCallID: "c", Content: "package main\nfunc main(){}"},
	))
	if got.Text != "It is a Go program." {
		t.Fatalf("tool rule: %+v", got)
	}
	// "on: user" must not fire on a tool result containing the phrase.
	got = r.Reply(req(Message{Role: "tool", Content: "read main"}))
	if got.Text != "default answer" {
		t.Fatalf("on filter ignored: %+v", got)
	}

	echo := (&Rules{}).Reply(req(Message{Role: "user", Content: "hello there"}))
	if !strings.HasPrefix(echo.Text, "You said: hello there") || !strings.Contains(echo.Text, "```text\nhello there\n```") {
		t.Fatalf("echo = %q", echo.Text)
	}
}

func TestParseRulesRejectsBadScripts(t *testing.T) {
	cases := map[string]string{
		`{"rules": [{"mtach": "x", "reply": {"text": "y"}}]}`:                                         "unknown field",
		`{"rules": [{"match": "x", "on": "assistant", "reply": {"text": "y"}}]}`:                      `on must be`,
		`{"rules": [{"match": "x", "reply": {"tool_calls": [{"name": "f", "arguments": "{oops"}]}}]}`: "not valid JSON",
		`{"rules": [{"match": "x", "reply": {"tool_calls": [{"arguments": "{}"}]}}]}`:                 "name is required",
		`{"rules": [{"match": "x", "reply": {"faults": [{"kind": "explode"}]}}]}`:                     "unknown kind",
		`{"rules": [{"match": "x", "reply": {"faults": [{"kind": "status", "status": 200}]}}]}`:       "status must be 400-599",
		`{"rules": [], "default": {"usage": {"cache_fields": "anthropic"}}}`:                          "cache_fields",
		`{"rules": []} {"rules": []}`: "trailing data",
		`not json`:                    "invalid rules script",
	}
	for in, want := range cases {
		if _, err := ParseRules([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRules(%s) err = %v, want %q", in, err, want)
		}
	}
}

func TestAdminEndpoints(t *testing.T) {
	s := Start(t)
	post(t, s, "", chatBody{Model: "m", Messages: []map[string]any{user("read main please")}})

	bad, err := http.Post(s.URL()[:len(s.URL())-3]+"/_script", "application/json", strings.NewReader(`{"rules":[{"on":"nope"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	bad.Body.Close()
	if bad.StatusCode != 400 {
		t.Fatalf("bad script status %d", bad.StatusCode)
	}
	ok, err := http.Post(s.URL()[:len(s.URL())-3]+"/_script", "application/json", strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	ok.Body.Close()
	if ok.StatusCode != 200 {
		t.Fatalf("script status %d", ok.StatusCode)
	}
	res := post(t, s, "", chatBody{Model: "m", Messages: []map[string]any{user("read main please")}})
	b, _ := io.ReadAll(res.Body)
	if !strings.Contains(string(b), `"read_file"`) {
		t.Fatalf("rule not applied: %s", b)
	}

	lr, err := http.Get(s.URL()[:len(s.URL())-3] + "/_requests")
	if err != nil {
		t.Fatal(err)
	}
	defer lr.Body.Close()
	var recs []RecordedRequest
	if err := json.NewDecoder(lr.Body).Decode(&recs); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || !strings.HasPrefix(recs[0].Reply.Text, "You said: read main please") || recs[1].Reply.ToolCalls[0].Name != "read_file" {
		t.Fatalf("recorded %+v", recs)
	}
	if recs[1].Reply.ToolCalls[0].ID == "" {
		t.Fatal("server did not assign a tool call id")
	}
}

func TestEchoNeverShowsTheContextBlock(t *testing.T) {
	req := &RecordedRequest{Messages: []Message{{Role: "user", Content: "<context>\nOpen file: calc.go\nSelection: none\n</context>\nExplain calc.go"}}}
	got := EchoReply(req).Text
	if strings.Contains(got, "<context>") || strings.Contains(got, "Open file") || !strings.Contains(got, "You said: Explain calc.go") {
		t.Fatalf("echo: %q", got)
	}
}

// make run's demo script (scripts/demo-model.json) parses and walks a
// newcomer through read, edit, test.
func TestDemoScriptWalksReadEditTest(t *testing.T) {
	data, err := os.ReadFile("../../../../scripts/demo-model.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseRules(data)
	if err != nil {
		t.Fatal(err)
	}
	tool := func(out string) *RecordedRequest {
		return &RecordedRequest{Messages: []Message{{Role: "user", Content: "hi"}, {Role: "tool", Content: out}}}
	}
	steps := []struct {
		req  *RecordedRequest
		tool string
	}{
		{&RecordedRequest{Messages: []Message{{Role: "user", Content: "<context>x</context>\nshow me"}}}, "read_file"},
		{tool("1\tpackage sample\n4\tfunc Add(a, b int) int { return a - b }"), "edit"},
		{tool("Edited calc.go (1 line changed)"), "run_shell_command"},
	}
	for i, s := range steps {
		got := r.Reply(s.req)
		if len(got.ToolCalls) != 1 || got.ToolCalls[0].Name != s.tool {
			t.Fatalf("step %d: reply %+v, want a %s call", i, got, s.tool)
		}
	}
	if got := r.Reply(tool("$ go test ./...\n(cwd ., exit code 0, 300 ms)")); !strings.Contains(got.Text, "snapshot") {
		t.Fatalf("final answer: %q", got.Text)
	}
	// A second run finds Add fixed: no empty edit is proposed, the test runs.
	got := r.Reply(tool("1\tpackage sample\n4\tfunc Add(a, b int) int { return a + b }"))
	if len(got.ToolCalls) != 1 || got.ToolCalls[0].Name != "run_shell_command" || !strings.Contains(got.Text, "already") {
		t.Fatalf("second run: %+v", got)
	}
}
