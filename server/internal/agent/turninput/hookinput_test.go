package turninput_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// hookSetting is a govibe.hooks value running one script (written to a
// temporary folder) on event for tools matching matcher.
func hookSetting(t *testing.T, event, matcher, body string) config.Values {
	p := filepath.Join(t.TempDir(), event+".sh")
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	h := map[string]any{"type": "command", "command": "sh " + p}
	return config.Values{"hooks": map[string]any{event: []any{map[string]any{"matcher": matcher, "hooks": []any{h}}}}}
}

// A hook reads transcript_path, a JSONL file of the conversation in
// Claude Code's line shape, and permission_mode.
func TestHookTranscriptIsReadable(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not installed (.ci/run installs it)")
	}
	out := t.TempDir()
	x := enginetest.New(t, hookSetting(t, "PreToolUse", "Read",
		"in=$(cat); echo \"$in\" | jq -r .permission_mode > "+out+"/mode; cp \"$(echo \"$in\" | jq -r .transcript_path)\" "+out+"/t.jsonl\n"))
	x.WriteFile("a.txt", "AAA\n")
	x.Model.Enqueue(scripted.Reply{Text: "looking"}, scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "r1", Name: "read_file", Arguments: `{"filePath":"a.txt"}`}}},
		scripted.Reply{Text: "done"})
	sid, _ := x.Turn("", "first question")
	x.Turn(sid, "read a.txt please")
	mode, _ := os.ReadFile(filepath.Join(out, "mode"))
	if strings.TrimSpace(string(mode)) != "bypassPermissions" { // headless --approve all
		t.Fatalf("permission_mode %q", mode)
	}
	f, err := os.Open(filepath.Join(out, "t.jsonl"))
	if err != nil {
		t.Fatalf("the transcript was not readable: %v", err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var line struct {
			Type      string `json:"type"`
			SessionID string `json:"sessionId"`
			Message   struct {
				Role    string `json:"role"`
				Content []struct {
					Type, Text, Name string
				} `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || line.SessionID != sid {
			t.Fatalf("line %s: %v", sc.Text(), err)
		}
		for _, c := range line.Message.Content {
			texts = append(texts, line.Message.Role+":"+c.Type+":"+c.Text+c.Name)
		}
	}
	got := strings.Join(texts, "|")
	for _, want := range []string{"user:text:first question", "assistant:text:looking", "user:text:read a.txt please", "assistant:tool_use:Read"} {
		if !strings.Contains(got, want) {
			t.Fatalf("transcript lacks %q: %s", want, got)
		}
	}
}
