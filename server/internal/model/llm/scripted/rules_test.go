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
// newcomer through read, a change in two parts, test; and, in Plan mode,
// from the withheld write to a plan whose executor makes the same change.
func TestDemoScriptWalksReadEditTest(t *testing.T) {
	data, err := os.ReadFile("../../../../../scripts/demo-model.json")
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
	user := func(text string) *RecordedRequest {
		return &RecordedRequest{Messages: []Message{{Role: "user", Content: text}}}
	}
	const readCalc = "1\tpackage sample\n2\t\n3\t// Add returns the sum of a and b.\n4\tfunc Add(a, b int) int { return a - b }"
	steps := []struct {
		req  *RecordedRequest
		tool string
	}{
		{user("<context>x</context>\nshow me"), "read_file"},
		{tool(readCalc), "write_file"},
		{tool("Overwrote calc.go (5 lines)."), "run_shell_command"},
		{tool("Overwrote calc.go (5 lines).\nUser note: The user rejected hunk(s) 1 of your edit; only the other hunks were written."), "run_shell_command"},
		// Plan mode: the write is withheld, a plan is proposed instead.
		// (the refusal's words are toolpolicy's Plan-mode reason)
		{tool(`Error: tool "write_file" is not available to this agent: Plan mode does not allow write_file: nothing changes until the proposed plan is run`), "create_todo_list"},
		// Run plan: the executor reads and writes, the evaluator completes.
		{user("[executor:1] Fix Add in calc.go"), "read_file"},
		{user("[evaluator:1] Check item 1"), "complete_todo_item"},
	}
	for i, s := range steps {
		got := r.Reply(s.req)
		if len(got.ToolCalls) != 1 || got.ToolCalls[0].Name != s.tool {
			t.Fatalf("step %d: reply %+v, want a %s call", i, got, s.tool)
		}
	}
	for _, out := range []string{"$ go test ./...\n(cwd ., exit code 0, 300 ms)", "Item 1 (Fix Add) is done."} {
		if got := r.Reply(tool(out)); got.Text == "" || len(got.ToolCalls) != 0 {
			t.Fatalf("answer to %q: %+v", out, got)
		}
	}
	if got := r.Reply(user("[scheduler] Every todo item has been handled. Results:")); !strings.Contains(got.Text, "plan is done") {
		t.Fatalf("the scheduler's summary: %q", got.Text)
	}
	// The final answer stays true whether or not the command was asked
	// about (the sandbox runs a read-only test unasked).
	final := r.Reply(tool("$ go test ./...\n(cwd ., exit code 0, 300 ms)")).Text
	if !strings.Contains(final, "snapshot") || strings.Contains(final, "after asking you") {
		t.Fatalf("final answer: %q", final)
	}
	// The change has two hunks: a package comment inserted at the top and
	// the fix, with unchanged lines between them.
	var args struct{ Content string }
	if err := json.Unmarshal([]byte(r.Reply(tool(readCalc)).ToolCalls[0].Arguments), &args); err != nil {
		t.Fatal(err)
	}
	before := []string{"package sample", "", "// Add returns the sum of a and b.", "func Add(a, b int) int { return a - b }"}
	after := strings.Split(strings.TrimSuffix(args.Content, "\n"), "\n")
	if len(after) != 5 || !strings.HasPrefix(after[0], "// Package sample") || strings.Join(after[1:4], "|") != strings.Join(before[:3], "|") || after[4] != "func Add(a, b int) int { return a + b }" {
		t.Fatalf("the demo's change is not two separate hunks over run.sh's calc.go:\n%s", args.Content)
	}
	// A second run finds Add fixed: no empty edit is proposed, the test runs.
	got := r.Reply(tool("1\tpackage sample\n4\tfunc Add(a, b int) int { return a + b }"))
	if len(got.ToolCalls) != 1 || got.ToolCalls[0].Name != "run_shell_command" || !strings.Contains(got.Text, "already") {
		t.Fatalf("second run: %+v", got)
	}
}
