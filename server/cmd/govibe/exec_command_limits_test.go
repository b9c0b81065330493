package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestExecInitNamesTheCommandsTools: headless, a custom command's
// allowedTools and model are what the stream-json init line names (the
// same list and model the request carries), and a plain prompt's init
// names the full list and the configured model.
func TestExecInitNamesTheCommandsTools(t *testing.T) {
	ws := gitRepo(t, map[string]string{"README.md": "# demo\n"})
	home := t.TempDir()
	writeFiles(t, home, map[string]string{".govibe/commands/look.md": "---\ndescription: Look\nmodel: review-model\nallowedTools: [Read, grep_search]\n---\nLook at $ARGUMENTS.\n"})
	model := scripted.Start(t, scripted.Reply{Text: "looked"}, scripted.Reply{Text: "plain"})
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + home, "XDG_CONFIG_HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m", "--output", "stream-json"}

	initOf := func(out string) (string, []string) {
		t.Helper()
		first, _, _ := strings.Cut(out, "\n")
		var line struct {
			Type, Model string
			Tools       []string
		}
		if err := json.Unmarshal([]byte(first), &line); err != nil || line.Type != "init" {
			t.Fatalf("first line is not init: %q (%v)", first, err)
		}
		return line.Model, line.Tools
	}
	out, errOut, code := runExec(t, env, append(common, "/look README.md")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	m, tools := initOf(out)
	req := model.Requests()[0]
	var sent []string
	for _, d := range req.Tools {
		sent = append(sent, d.Name)
	}
	// review-model names no profile and no model of the provider, so it is
	// never sent (issue 32): the session's model runs the command.
	if m != "m" || req.Model != "m" || !slices.Equal(slices.Sorted(slices.Values(tools)), []string{"grep_search", "read_file"}) || !slices.Equal(tools, sent) {
		t.Fatalf("command init: model %q tools %v; the request: model %q tools %v", m, tools, req.Model, sent)
	}

	out, errOut, code = runExec(t, env, append(common, "hello")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	m, tools = initOf(out)
	// The request's tools, and after more_tools the deferred tools it lists.
	var want []string
	for _, d := range model.Requests()[1].Tools {
		want = append(want, d.Name)
		if d.Name == "more_tools" {
			for _, l := range strings.Split(d.Description, "\n") {
				if name, _, ok := strings.Cut(strings.TrimPrefix(l, "- "), "("); ok && strings.HasPrefix(l, "- ") {
					want = append(want, name)
				}
			}
		}
	}
	if m != "m" || len(tools) < 10 || !slices.Contains(tools, "run_shell_command") || !slices.Contains(tools, "text_diff") || !slices.Equal(tools, want) {
		t.Fatalf("plain init: model %q tools %v, want %v", m, tools, want)
	}
}
