package engine_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/corpus"
)

// Claude Code agents' `model:` (haiku, sonnet, opus, inherit; Claude Code's
// sub-agent docs) maps to the user's roles and is never sent to the
// provider: haiku runs on the profile of a role meant for a small model
// (roles.reviewer here), opus on the session's model even for an agent
// whose name would pick the reviewer role, inherit on the parent's model;
// with no small role, haiku is ignored with a notice. The files are real
// (testdata/compat, each with its .source note) but for the inherit one.
func TestClaudeAgentModelsMapToRoles(t *testing.T) {
	const (
		reviewerMark = "You are an expert code reviewer"
		haikuMark    = "STEP 0: LOAD AGENT INSTRUCTIONS"
		inheritMark  = "INHERIT-AGENT"
	)
	setup := func(settings config.Values) (*enginetest.Script, *enginetest.Env, string) {
		s := &enginetest.Script{
			Main: []scripted.Reply{
				calls(call("a1", "agent_code-reviewer", map[string]any{"objective": "review the diff"}),
					call("a2", "agent_agent-haiku", map[string]any{"objective": "list files"}),
					call("a3", "agent_comment-reviewer", map[string]any{"objective": "check comments"})),
				text("done"),
			},
			Sub: map[string][]scripted.Reply{reviewerMark: {text("lgtm")}, haikuMark: {text("listed")}, inheritMark: {text("fine")}},
		}
		x := enginetest.NewScripted(t, s, nil, true)
		if settings != nil {
			x.Close()
			for k, v := range settings {
				if m, ok := v.([]any); ok && k == "models" {
					m[0].(map[string]any)["baseUrl"] = x.Model.URL()
				}
			}
			x.OpenTrusted(settings, true)
		}
		agents := filepath.Join(x.Dir, ".claude", "agents")
		writeAgent(t, agents, "code-reviewer.md", corpus.Read(t, "anthropics/claude-code/plugins/pr-review-toolkit/agents/code-reviewer.md"))
		writeAgent(t, agents, "agent-haiku.md", corpus.Read(t, "Aroton/AroClaude/.claude/agents/agent-haiku.md"))
		writeAgent(t, agents, "comment-reviewer.md", "---\nname: comment-reviewer\ndescription: Checks comments\ntools: Read\nmodel: inherit\n---\n"+inheritMark+": you check comments.\n")
		sid, _ := x.Turn("", "review everything")
		return s, x, sid
	}
	modelOf := func(s *enginetest.Script, mark string) string {
		t.Helper()
		if len(s.Reqs[mark]) == 0 {
			t.Fatalf("the agent %q never ran; main offered %v", mark, s.Offered["main"])
		}
		return s.Reqs[mark][0].Model
	}
	notices := func(x *enginetest.Env, sid string) string {
		var out []string
		for _, ev := range x.EventsOf(sid, kinds.Notice) {
			out = append(out, ev.Text)
		}
		return strings.Join(out, "\n")
	}

	s, x, sid := setup(config.Values{
		"models":         []any{map[string]any{"name": "fast", "model": "scripted-small"}},
		"roles.reviewer": "fast",
	})
	if m := modelOf(s, haikuMark); m != "scripted-small" {
		t.Errorf("haiku ran on %q, want the reviewer role's scripted-small", m)
	}
	if m := modelOf(s, reviewerMark); m != "scripted-model" {
		t.Errorf("opus ran on %q, want the session's scripted-model (not the reviewer role's)", m)
	}
	if m := modelOf(s, inheritMark); m != "scripted-model" {
		t.Errorf("inherit ran on %q, want the parent's scripted-model", m)
	}
	for _, r := range x.Model.Requests() {
		if r.Model != "scripted-model" && r.Model != "scripted-small" {
			t.Errorf("a request was sent for model %q", r.Model)
		}
	}
	all := notices(x, sid)
	if !strings.Contains(all, "agent-haiku asks for the model haiku") || !strings.Contains(all, "reviewer profile fast") ||
		!strings.Contains(all, "code-reviewer asks for the model opus") || strings.Contains(all, "model inherit") {
		t.Errorf("notices:\n%s", all)
	}

	// No role fits a small model: haiku is ignored, with a notice.
	s, x, sid = setup(nil)
	if m := modelOf(s, haikuMark); m != "scripted-model" {
		t.Errorf("haiku without a small role ran on %q", m)
	}
	if all := notices(x, sid); !strings.Contains(all, "agent-haiku asks for the model haiku, which none of your profiles serves; it runs on scripted-model") {
		t.Errorf("notices:\n%s", all)
	}
}
