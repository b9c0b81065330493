package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// seen decodes what a hook wrote with `cat > seen.json`.
func seen(t *testing.T, dir string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "seen.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return m
}

// A hook reads Claude Code's payload: its tool names and tool_input
// fields, absolute file paths, the common fields, GoVibe's own name and
// arguments alongside, and $CLAUDE_PROJECT_DIR.
func TestStdinIsClaudeCodes(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), []byte("one\ntwo\nthree\n"), 0o644)
	r := loadFor(t, `{"PreToolUse":[{"matcher":"*","hooks":[{"command":"cat > seen.json; echo \"$CLAUDE_PROJECT_DIR\" > dir.txt"}]}]}`, root)
	cases := []struct {
		tool, args, name string
		input            map[string]any
	}{
		{"run_shell_command", `{"command":"make","timeoutMs":5000}`, "Bash", map[string]any{"command": "make", "timeout": 5000.0}},
		{"read_file", `{"filePath":"a.go","startLine":2,"endLine":3}`, "Read", map[string]any{"file_path": filepath.Join(root, "a.go"), "offset": 2.0, "limit": 2.0}},
		{"write_file", `{"filePath":"b.txt","content":"hi"}`, "Write", map[string]any{"file_path": filepath.Join(root, "b.txt"), "content": "hi"}},
		{"edit", `{"filePath":"a.go","startLine":2,"endLine":3,"newContent":"2\n3"}`, "Edit",
			map[string]any{"file_path": filepath.Join(root, "a.go"), "old_string": "two\nthree", "new_string": "2\n3", "replace_all": false}},
		{"glob", `{"pattern":"**/*.go"}`, "Glob", map[string]any{"pattern": "**/*.go"}},
		{"grep_search", `{"pattern":"TODO","includePattern":"*.go"}`, "Grep", map[string]any{"pattern": "TODO", "glob": "*.go", "-i": true, "output_mode": "content"}},
		{"web_fetch", `{"url":"https://go.dev"}`, "WebFetch", map[string]any{"url": "https://go.dev", "prompt": ""}},
		{"agent_reviewer", `{"objective":"review the diff"}`, "Task", map[string]any{"prompt": "review the diff", "description": "review the diff", "subagent_type": "reviewer"}},
		{"mcp__memory__create_entities", `{"x":1}`, "mcp__memory__create_entities", map[string]any{"x": 1.0}},
		{"find_in_file", `{"filePath":"a.go","searchString":"two"}`, "find_in_file", map[string]any{"filePath": "a.go", "searchString": "two"}},
	}
	for _, c := range cases {
		out := r.Fire(context.Background(), Input{SessionID: "s1", TranscriptPath: "/t/s1.jsonl", PermissionMode: "acceptEdits",
			HookEventName: PreToolUse, ToolName: c.tool, ToolInput: json.RawMessage(c.args), ToolUseID: "call_1", Cwd: root})
		if len(out.Runs) != 1 || out.Runs[0].Result != "ok" {
			t.Fatalf("%s: %+v", c.tool, out)
		}
		m := seen(t, root)
		if m["tool_name"] != c.name || m["session_id"] != "s1" || m["transcript_path"] != "/t/s1.jsonl" || m["cwd"] != root ||
			m["permission_mode"] != "acceptEdits" || m["hook_event_name"] != "PreToolUse" || m["tool_use_id"] != "call_1" || m["govibe_tool_name"] != c.tool {
			t.Errorf("%s: common fields: %v", c.tool, m)
		}
		got, _ := json.Marshal(m["tool_input"])
		want, _ := json.Marshal(c.input)
		if string(got) != string(want) {
			t.Errorf("%s: tool_input %s, want %s", c.tool, got, want)
		}
		if gv, _ := json.Marshal(m["govibe_tool_input"]); !strings.Contains(string(gv), strings.Split(strings.Trim(c.args, "{}"), ",")[0]) {
			t.Errorf("%s: govibe_tool_input %s", c.tool, gv)
		}
	}
	if d, _ := os.ReadFile(filepath.Join(root, "dir.txt")); strings.TrimSpace(string(d)) != root {
		t.Fatalf("CLAUDE_PROJECT_DIR=%q", d)
	}
}

// Matchers are Claude Code's: exact names (with | or ,), else a regular
// expression matched anywhere; Task also answers to Agent; MCP tools by
// their mcp__server__tool names; GoVibe's names still work.
func TestMatchersAsClaudeCode(t *testing.T) {
	cases := []struct {
		matcher, tool string
		want          bool
	}{
		{"Edit|Write", "write_file", true},
		{"Edit, Write", "edit", true},
		{"Edit", "write_file", false},
		{"Bash", "run_shell_command", true},
		{"run_shell_command", "run_shell_command", true},
		{"^Notebook", "edit", false},
		{"Ed.*", "edit", true},
		{"mcp__memory__.*", "mcp__memory__create_entities", true},
		{"mcp__memory", "mcp__memory__create_entities", false},
		{"Task", "investigate", true},
		{"Agent", "agent_reviewer", true},
		{"Read", "read_file", true},
		{"WebFetch", "web_fetch", true},
	}
	for _, c := range cases {
		cfg, _ := json.Marshal(map[string]any{"PreToolUse": []any{map[string]any{"matcher": c.matcher, "hooks": []any{map[string]any{"command": "true"}}}}})
		r := loadFor(t, string(cfg), t.TempDir())
		got := len(r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: c.tool, ToolInput: json.RawMessage(`{}`)}).Runs) == 1
		if got != c.want {
			t.Errorf("matcher %q on %s: %v, want %v", c.matcher, c.tool, got, c.want)
		}
	}
	// SessionStart's matcher filters the source.
	r := loadFor(t, `{"SessionStart":[{"matcher":"clear","hooks":[{"command":"echo cleared"}]}]}`, t.TempDir())
	if out := r.Fire(context.Background(), Input{HookEventName: SessionStart, Source: "startup"}); len(out.Runs) != 0 {
		t.Fatalf("clear matched startup: %+v", out)
	}
	if out := r.Fire(context.Background(), Input{HookEventName: SessionStart, Source: "clear"}); out.AdditionalContext != "cleared" {
		t.Fatalf("clear: %+v", out)
	}
}

// updatedInput in Claude Code's field names changes GoVibe's arguments;
// an old_string change, which a line-based edit cannot take, is refused
// with a note and the call runs unchanged.
func TestUpdatedInputMapsBack(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), []byte("one\ntwo\n"), 0o644)
	r := loadFor(t, `{"PreToolUse":[
		{"matcher":"Write","hooks":[{"command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"updatedInput\":{\"file_path\":\"`+filepath.Join(root, "c.txt")+`\",\"content\":\"redacted\"}}}'"}]},
		{"matcher":"Edit","hooks":[{"command":"jq -c '{hookSpecificOutput:{updatedInput:(.tool_input + {new_string:\"TWO\"})}}'"}]},
		{"matcher":"Bash","hooks":[{"command":"echo '{\"hookSpecificOutput\":{\"updatedInput\":{\"old_string\":\"x\"}}}'"}]}]}`, root)
	out := r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: "write_file", ToolInput: json.RawMessage(`{"filePath":"b.txt","content":"secret"}`)})
	var w map[string]any
	json.Unmarshal(out.UpdatedInput, &w)
	if w["filePath"] != filepath.Join(root, "c.txt") || w["content"] != "redacted" {
		t.Fatalf("write: %s %+v", out.UpdatedInput, out)
	}
	need(t, "jq")
	out = r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: "edit", ToolInput: json.RawMessage(`{"filePath":"a.go","startLine":2,"endLine":2,"newContent":"2"}`)})
	var e map[string]any
	json.Unmarshal(out.UpdatedInput, &e)
	if e["newContent"] != "TWO" || e["filePath"] != "a.go" || e["startLine"] != 2.0 {
		t.Fatalf("edit: %s %+v", out.UpdatedInput, out.Runs)
	}
	// Bash has no old_string: a foreign field is taken as GoVibe's (it is
	// then the tool's to refuse); an Edit old_string change is refused.
	r = loadFor(t, `{"PreToolUse":[{"matcher":"Edit","hooks":[{"command":"echo '{\"hookSpecificOutput\":{\"updatedInput\":{\"old_string\":\"x\"}}}'"}]}]}`, root)
	out = r.Fire(context.Background(), Input{HookEventName: PreToolUse, ToolName: "edit", ToolInput: json.RawMessage(`{"filePath":"a.go","startLine":2,"endLine":2,"newContent":"2"}`)})
	if out.UpdatedInput != nil || out.Runs[0].Result != "failed" || !strings.Contains(out.Runs[0].Note, "old_string") {
		t.Fatalf("old_string change: %+v", out)
	}
}

// permissionDecision: deny blocks with its reason for the model, ask
// beats allow across hooks, the deprecated approve is allow; continue:
// false stops the turn (a Stop hook's does not send the agent back).
func TestDecisionsAndContinue(t *testing.T) {
	r := loadFor(t, `{"PreToolUse":[
		{"matcher":"Bash","hooks":[{"command":"echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"allow\",\"permissionDecisionReason\":\"safe\"}}'"},
		                          {"command":"echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"check\"}}'"},
		                          {"command":"echo '{\"decision\":\"approve\"}'"}]},
		{"matcher":"Write","hooks":[{"command":"echo '{\"continue\":false,\"stopReason\":\"build broke\"}'"}]},
		{"matcher":"Read","hooks":[{"command":"echo '{\"decision\":\"approve\",\"reason\":\"ok\"}'"}]}],
	  "Stop":[{"hooks":[{"command":"echo '{\"decision\":\"block\",\"reason\":\"tests\",\"continue\":false,\"stopReason\":\"done\"}'"}]}],
	  "PostToolUse":[{"hooks":[{"command":"echo 'lint: 2 problems' >&2; exit 2"}]}]}`, t.TempDir())
	ctx := context.Background()
	out := r.Fire(ctx, Input{HookEventName: PreToolUse, ToolName: "run_shell_command", ToolInput: json.RawMessage(`{"command":"x"}`)})
	if out.Blocked || out.Decision != tools.HookAsk || out.DecisionReason != "check" {
		t.Fatalf("ask beats allow: %+v", out)
	}
	out = r.Fire(ctx, Input{HookEventName: PreToolUse, ToolName: "read_file", ToolInput: json.RawMessage(`{"filePath":"a"}`)})
	if out.Decision != tools.HookAllow {
		t.Fatalf("approve: %+v", out)
	}
	out = r.Fire(ctx, Input{HookEventName: PreToolUse, ToolName: "write_file", ToolInput: json.RawMessage(`{"filePath":"a"}`)})
	if !out.Blocked || !out.Stop || out.StopReason != "build broke" {
		t.Fatalf("continue false: %+v", out)
	}
	out = r.Fire(ctx, Input{HookEventName: Stop})
	if out.Blocked || !out.Stop {
		t.Fatalf("a Stop hook's continue:false must end the turn, not continue it: %+v", out)
	}
	out = r.Fire(ctx, Input{HookEventName: PostToolUse, ToolName: "edit", ToolInput: json.RawMessage(`{}`)})
	if !out.Blocked || out.Reason != "lint: 2 problems" {
		t.Fatalf("PostToolUse exit 2 goes to the model: %+v", out)
	}
}

// probeTool records the hook decision its run saw.
type probeTool struct {
	name string
	got  *tools.HookDecision
}

func (p probeTool) Name() string            { return p.name }
func (p probeTool) Description() string     { return "" }
func (p probeTool) Schema() json.RawMessage { return json.RawMessage(`{}`) }
func (p probeTool) ReadOnly() bool          { return false }
func (p probeTool) Traits() tools.Traits    { return 0 }
func (p probeTool) Run(ctx context.Context, _ *tools.Env, raw json.RawMessage) (tools.Result, error) {
	d, _ := tools.HookDecisionOf(ctx)
	*p.got = d
	return tools.Result{OK: true, Output: string(raw)}, nil
}

// The wrapped tool hands a hook's allow to its approver with the call,
// and a hook's continue:false ends the turn after the round.
func TestHookedToolCarriesTheDecision(t *testing.T) {
	m := NewManager(ManagerOptions{Roots: []string{t.TempDir()}, Trusted: func() bool { return true },
		UserSetting: func() json.RawMessage {
			return json.RawMessage(`{"PreToolUse":[{"matcher":"Bash","hooks":[{"command":"echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"allow\"}}'"}]}],
			  "PostToolUse":[{"matcher":"Bash","hooks":[{"command":"echo '{\"continue\":false,\"stopReason\":\"enough\"}'"}]}]}`)
		},
		Publish: func(string, string, Run) {}, Notice: func(string, string) {}, Tr: func(s string, a ...any) string { return s }})
	var got tools.HookDecision
	wrapped := m.WithHooks([]tools.Tool{probeTool{name: "run_shell_command", got: &got}})[0]
	res, err := wrapped.Run(context.Background(), &tools.Env{TurnID: "t1"}, json.RawMessage(`{"command":"make"}`))
	if err != nil || !res.OK || got.Decision != tools.HookAllow || !strings.Contains(got.Source, "permissionDecision") {
		t.Fatalf("decision: %+v %+v %v", got, res, err)
	}
	stop := m.StopWhen("t1")
	if why := stop(); !strings.Contains(why, "enough") || stop() != "" {
		t.Fatalf("stop: %q", why)
	}
}

// suppressOutput keeps a run out of the chat (it is still logged); other
// runs are published.
func TestSuppressOutputIsNotPublished(t *testing.T) {
	var published []string
	m := NewManager(ManagerOptions{Roots: []string{t.TempDir()}, Trusted: func() bool { return true },
		UserSetting: func() json.RawMessage {
			return json.RawMessage(`{"Stop":[{"hooks":[{"command":"echo '{\"suppressOutput\":true}'"},{"command":"echo shown"}]}]}`)
		},
		Publish: func(_, _ string, r Run) { published = append(published, r.Command) },
		Notice:  func(string, string) {}, Tr: func(s string, a ...any) string { return s }})
	out := m.Fire(context.Background(), "t1", Input{SessionID: "s1", HookEventName: Stop})
	if len(out.Runs) != 2 || len(published) != 1 || published[0] != "echo shown" {
		t.Fatalf("runs %+v, published %v", out.Runs, published)
	}
}
