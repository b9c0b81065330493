package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/eventdata"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// hookSetting builds a govibe.hooks value running scripts (event →
// matcher → script body) written to a temporary folder.
func hookSetting(t *testing.T, scripts map[string]map[string]string, timeout float64) config.Values {
	dir := t.TempDir()
	out := map[string]any{}
	n := 0
	for ev, byMatcher := range scripts {
		var groups []any
		for m, body := range byMatcher {
			n++
			p := filepath.Join(dir, ev+string(rune('a'+n))+".sh")
			if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
			h := map[string]any{"type": "command", "command": "sh " + p}
			if timeout > 0 {
				h["timeout"] = timeout
			}
			groups = append(groups, map[string]any{"matcher": m, "hooks": []any{h}})
		}
		out[ev] = groups
	}
	return config.Values{"hooks": out}
}

func toolResultOf(x *enginetest.Env, id string) string {
	for _, r := range x.Model.Requests() {
		for _, m := range r.Messages {
			if m.Role == "tool" && m.ToolCallID == id {
				return m.Content
			}
		}
	}
	return ""
}

// TestHooksBlockModifyAndAddContext: a PreToolUse hook that exits 2
// blocks the call (its stderr is the model's reason); one that replies
// updatedInput changes the arguments; UserPromptSubmit adds context to
// the model's message; runs are shown as hook events.
func TestHooksBlockModifyAndAddContext(t *testing.T) {
	x := enginetest.New(t, hookSetting(t, map[string]map[string]string{
		"PreToolUse": {
			"grep_search": "echo 'searching is not allowed here' >&2; exit 2\n",
			"read_file":   `echo '{"hookSpecificOutput":{"updatedInput":{"filePath":"b.txt"}}}'` + "\n",
		},
		"UserPromptSubmit": {"": "echo 'HOOK-CONTEXT-42'\n"},
	}, 0))
	x.WriteFile("a.txt", "AAA\n")
	x.WriteFile("b.txt", "BBB-CONTENT\n")
	x.Model.Enqueue(scripted.Reply{ToolCalls: []scripted.ToolCall{
		{ID: "g1", Name: "grep_search", Arguments: `{"query":"x"}`},
		{ID: "r1", Name: "read_file", Arguments: `{"filePath":"a.txt"}`},
	}}, scripted.Reply{Text: "done"})
	sid, _ := x.Turn("", "go")
	if u := x.Model.Requests()[0].LastUserMessage(); !strings.Contains(u, "HOOK-CONTEXT-42") {
		t.Fatalf("UserPromptSubmit context missing:\n%s", u)
	}
	if r := toolResultOf(x, "g1"); !strings.Contains(r, "Blocked by a PreToolUse hook: searching is not allowed here") {
		t.Fatalf("blocked call's result: %q", r)
	}
	// The user's hook refused it: a rule followed, shown on a neutral card
	// labelled as the hook's, not as a failure.
	for _, ev := range x.EventsOf(sid, kinds.ToolResult) {
		if ev.Tool == nil || ev.Tool.CallID != "g1" {
			continue
		}
		if m, _ := ev.Tool.Meta.(map[string]any); m["withheld"] != true || m["withheldBy"] != "hook" {
			t.Fatalf("blocked call's meta: %v", ev.Tool.Meta)
		}
	}
	if r := toolResultOf(x, "r1"); !strings.Contains(r, "BBB-CONTENT") {
		t.Fatalf("updatedInput not applied: %q", r)
	}
	results := map[string]int{}
	for _, ev := range x.EventsOf(sid, kinds.Hook) {
		results[ev.Payload.(eventdata.HookRun).Result]++
	}
	if results["blocked"] != 1 || results["ok"] < 2 {
		t.Fatalf("hook events: %v", results)
	}
}

// TestHooksRefusePromptAndTimeOut: a blocking UserPromptSubmit refuses
// the message with the hook's reason; a hook that outlives its timeout is
// stopped and does not block.
func TestHooksRefusePromptAndTimeOut(t *testing.T) {
	x := enginetest.New(t, hookSetting(t, map[string]map[string]string{
		"UserPromptSubmit": {"": "case \"$(cat)\" in *secret*) echo 'no secrets in prompts' >&2; exit 2;; esac\n"},
		"PreToolUse":       {"read_file": "sleep 5\n"},
	}, 1))
	_, _, err := x.E.Send(context.Background(), engine.SendParams{Text: "here is a secret"})
	if err == nil || !strings.Contains(err.Error(), "no secrets in prompts") {
		t.Fatalf("blocked prompt: %v", err)
	}
	if n := len(x.Model.Requests()); n != 0 {
		t.Fatalf("a refused message reached the model (%d requests)", n)
	}
	x.WriteFile("a.txt", "AAA-CONTENT\n")
	x.Model.Enqueue(scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "r1", Name: "read_file", Arguments: `{"filePath":"a.txt"}`}}}, scripted.Reply{Text: "done"})
	sid, _ := x.Turn("", "read it")
	if r := toolResultOf(x, "r1"); !strings.Contains(r, "AAA-CONTENT") {
		t.Fatalf("a timed-out hook blocked the call: %q", r)
	}
	timedOut := false
	for _, ev := range x.EventsOf(sid, kinds.Hook) {
		if ev.Payload.(eventdata.HookRun).Result == "timeout" {
			timedOut = true
		}
	}
	if !timedOut {
		t.Fatal("no timeout hook run reported")
	}
}
