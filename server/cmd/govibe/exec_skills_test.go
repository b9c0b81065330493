package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// projectSkill is a project skill that carries a script: it may act, so it
// loads only in a trusted workspace.
var projectSkill = map[string]string{
	".govibe/skills/deploy/SKILL.md":  "---\nname: deploy\ndescription: Deploys the site with the project's script.\n---\nRun deploy.sh.\n",
	".govibe/skills/deploy/deploy.sh": "#!/bin/sh\necho deployed\n",
}

// TestExecSkillsPrefixStableAndTrustGated: the system prompt lists the
// skills (built-ins always; the project's only when trusted), load_skill
// works, and the request prefix (system prompt and tool definitions) is
// byte-identical before and after a skill is loaded and activated; the
// active skill is named in the next turn's context block.
func TestExecSkillsPrefixStableAndTrustGated(t *testing.T) {
	for _, trusted := range []bool{false, true} {
		name := "untrusted"
		if trusted {
			name = "trusted"
		}
		t.Run(name, func(t *testing.T) {
			ws := gitRepo(t, map[string]string{"README.md": "# demo\n"})
			writeFiles(t, ws, projectSkill)
			model := scripted.Start(t,
				scripted.Reply{ToolCalls: []scripted.ToolCall{tc("s1", "load_skill", `{"name":"code-reviewer"}`)}},
				scripted.Reply{ToolCalls: []scripted.ToolCall{tc("s2", "activate_skill", `{"name":"code-reviewer"}`)}},
				scripted.Reply{Text: "Reviewed."},
				scripted.Reply{Text: "Again."})
			state := t.TempDir()
			env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
			args := []string{"--workspace", ws, "--state-dir", state, "--base-url", model.URL(), "--model", "m", "--output", "stream-json"}
			if trusted {
				args = append(args, "--trust")
			}
			out, errOut, code := runExec(t, env, append(args, "review the code")...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			reqs := model.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want 3", len(reqs))
			}
			sys := reqs[0].Messages[0].Content
			if !strings.Contains(sys, "- code-reviewer: ") || !strings.Contains(sys, "- spec-driven: ") {
				t.Fatalf("system prompt lacks the built-in skills:\n%s", sys)
			}
			if got := strings.Contains(sys, "- deploy: "); got != trusted {
				t.Fatalf("project skill in the prompt = %v, want %v (trusted=%v)", got, trusted, trusted)
			}
			if !trusted && !strings.Contains(errOut, "Skills skipped") {
				t.Fatalf("no notice of the skipped project skill: %q", errOut)
			}
			for i, r := range reqs[1:] {
				if r.Messages[0].Content != sys {
					t.Fatalf("request %d's system prompt changed after load_skill", i+2)
				}
				if toolsJSON(r) != toolsJSON(reqs[0]) {
					t.Fatalf("request %d's tool definitions changed", i+2)
				}
			}
			if res := toolResult(reqs[1], "s1"); !strings.Contains(res, `<skill name="code-reviewer"`) {
				t.Fatalf("load_skill result: %q", res)
			}
			sid := sessionOf(t, out)
			if out, errOut, code = runExec(t, env, append(args, "--session", sid, "and again")...); code != 0 {
				t.Fatalf("second run: exit %d\n%s\n%s", code, out, errOut)
			}
			reqs = model.Requests()
			if last := reqs[len(reqs)-1].LastUserMessage(); !strings.Contains(last, "Active skills: code-reviewer") {
				t.Fatalf("the context block does not name the active skill:\n%s", last)
			}
			if reqs[len(reqs)-1].Messages[0].Content != sys {
				t.Fatal("the system prompt changed in the next turn")
			}
		})
	}
}

func toolsJSON(r scripted.RecordedRequest) string {
	var b strings.Builder
	for _, x := range r.Tools {
		b.WriteString(x.Name + string(x.Parameters) + x.Description)
	}
	return b.String()
}

func toolResult(r scripted.RecordedRequest, id string) string {
	for _, m := range r.Messages {
		if m.Role == "tool" && m.ToolCallID == id {
			return m.Content
		}
	}
	return ""
}

// sessionOf reads the session id from a stream-json transcript's first line.
func sessionOf(t *testing.T, streamJSON string) string {
	t.Helper()
	line, _, _ := strings.Cut(streamJSON, "\n")
	var init struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(line), &init); err != nil || init.SessionID == "" {
		t.Fatalf("init line: %q (%v)", line, err)
	}
	return init.SessionID
}
