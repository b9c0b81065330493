package main

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestExecTextFallbackIsRememberedAndTold once: a 400 that names `tools`
// (Azure's wording) falls back to the text protocol; the next run, a new
// process on the same state, starts there without the failed request and
// without the notice.
func TestExecTextFallbackIsRememberedAndToldOnce(t *testing.T) {
	ws := gitRepo(t, map[string]string{"a.txt": "alpha\n"})
	model := scripted.Start(t)
	model.SetConfig(scripted.Config{ToolsUnsupported: true, ToolsUnsupportedMessage: "Unrecognized request argument supplied: tools"})
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		if strings.Contains(r.LastUserMessage(), "<tool_result") {
			return scripted.Reply{Text: "It says alpha."}
		}
		return scripted.Reply{Text: `<tool_call>{"tool": "read_file", "arguments": {"filePath": "a.txt"}}</tool_call>`}
	})
	state, home := t.TempDir(), t.TempDir()
	run := func() string {
		t.Helper()
		out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + home},
			"--workspace", ws, "--state-dir", state, "--base-url", model.URL(), "--model", "m", "--output", "text", "what is in a.txt")
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		return out
	}
	const notice = "does not accept tool definitions"
	out := run()
	if !strings.Contains(out, notice) || !strings.Contains(out, "It says alpha.") {
		t.Fatalf("first run:\n%s", out)
	}
	// The text protocol's call is a tool card, not words of the answer.
	if strings.Contains(out, "<tool_call>") || !strings.Contains(out, "read_file a.txt") {
		t.Fatalf("the text protocol's markup reached the person:\n%s", out)
	}
	first := len(model.Requests())
	if first != 3 || len(model.Requests()[0].Tools) == 0 || len(model.Requests()[1].Tools) != 0 {
		t.Fatalf("first run: %d requests (want: with tools, then two in text)", first)
	}
	out = run()
	if strings.Contains(out, notice) || !strings.Contains(out, "It says alpha.") {
		t.Fatalf("second run repeats the notice or fails:\n%s", out)
	}
	for _, r := range model.Requests()[first:] {
		if len(r.Tools) > 0 {
			t.Fatalf("the second run sent tools again (request %d)", r.Seq)
		}
	}
	if got := len(model.Requests()) - first; got != 2 {
		t.Fatalf("second run made %d requests, want 2", got)
	}
}
