package main

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestExecBrowserApproval: headless, browser_sub_agent runs only under
// --approve all or the user's allow rule browser_sub_agent; otherwise the
// model is told why and nothing starts. The browser's executable points at
// nothing, so a run that goes ahead ends at once with "not available".
func TestExecBrowserApproval(t *testing.T) {
	ws := gitRepo(t, map[string]string{"main.go": "package main\n"})
	model := scripted.Start(t)
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", "text",
		"--set", `browser.executablePath="/nonexistent/chromium"`}
	run := scripted.Reply{ToolCalls: []scripted.ToolCall{tc("b1", "browser_sub_agent", `{"task":"Read the heading","url":"https://example.com/"}`)}}
	lastTool := func() string {
		reqs := model.Requests()
		msgs := reqs[len(reqs)-1].Messages
		return msgs[len(msgs)-1].Content
	}
	for _, c := range []struct {
		name  string
		extra []string
		want  string
	}{
		{"approve-none", nil, "this headless run does not approve browser runs (use --approve all or the allow rule browser_sub_agent)"},
		{"approve-edits", []string{"--approve", "edits"}, "does not approve browser runs"},
		{"allow-rule", []string{"--set", `permissions.allow=["browser_sub_agent"]`}, "not available"},
		{"approve-all", []string{"--approve", "all"}, "not available"},
		{"deny-rule-wins", []string{"--approve", "all", "--set", `permissions.deny=["browser_sub_agent"]`}, "denied by your permission rule browser_sub_agent"},
	} {
		t.Run(c.name, func(t *testing.T) {
			model.Enqueue(run, scripted.Reply{Text: "ok"})
			args := append(append(append([]string{}, common...), c.extra...), "check the page")
			if out, errOut, code := runExec(t, env, args...); code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			if got := lastTool(); !strings.Contains(got, c.want) {
				t.Fatalf("the model got %q, want %q", got, c.want)
			}
		})
	}
}
