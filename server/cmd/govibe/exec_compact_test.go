package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// TestExecCompactShortensADominantRead is issue 16.7 headless: with
// compact.keepTokens=200, a session that is mostly one 400-line read is
// compacted by `govibe exec "/compact"` (the read is shortened to its head
// and tail) instead of "Nothing to summarise yet".
func TestExecCompactShortensADominantRead(t *testing.T) {
	var file strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&file, "x%d := load(%d)\n", i, i*3)
	}
	ws := gitRepo(t, map[string]string{"big.txt": file.String()})
	model := scripted.Start(t,
		scripted.Reply{Text: "Reading it.", ToolCalls: []scripted.ToolCall{tc("r1", "read_file", `{"filePath":"big.txt"}`)}},
		scripted.Reply{Text: "It loads 400 values."})
	state := t.TempDir()
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", state, "--base-url", model.URL(), "--model", "m", "--set", "compact.keepTokens=200"}

	out, errOut, code := runExec(t, env, append(common, "--output", "stream-json", "read big.txt")...)
	if code != 0 {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errOut)
	}
	var init struct {
		SessionID string `json:"session_id"`
	}
	if err := json.NewDecoder(bufio.NewReader(strings.NewReader(out))).Decode(&init); err != nil || init.SessionID == "" {
		t.Fatalf("init line: %q (%v)", out, err)
	}

	out, errOut, code = runExec(t, env, append(common, "--session", init.SessionID, "--output", "text", "/compact")...)
	if code != 0 {
		t.Fatalf("/compact: exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "Nothing to summarise") || !strings.Contains(out, "note: A large tool output was shortened") {
		t.Fatalf("/compact output: %q (stderr %q)", out, errOut)
	}
	if n := len(model.Requests()); n != 2 {
		t.Fatalf("%d model requests, want the first run's 2 (shortening needs no summary)", n)
	}

	st, err := store.Open(filepath.Join(state, "sessions.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	track, err := st.LLMMessages(context.Background(), init.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	est := compact.Default()
	for _, m := range track {
		if m.Role != llm.RoleTool {
			continue
		}
		if !strings.Contains(m.Content, compact.TruncatedMarker) || !strings.Contains(m.Content, "x400 := load(1200)") || est.Text(m.Content) > 1000 {
			t.Fatalf("the read was not shortened to its head and tail (%d tokens):\n%s", est.Text(m.Content), m.Content)
		}
		return
	}
	t.Fatal("no tool result in the stored track")
}

// TestExecCompactNoticeInTheUsersLanguage: what /compact did is told in
// the user's language, not in English behind a translated "note:".
func TestExecCompactNoticeInTheUsersLanguage(t *testing.T) {
	var file strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&file, "x%d := load(%d)\n", i, i*3)
	}
	ws := gitRepo(t, map[string]string{"big.txt": file.String()})
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("r1", "read_file", `{"filePath":"big.txt"}`)}},
		scripted.Reply{Text: "ok"})
	env := []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()}
	common := []string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m",
		"--set", "compact.keepTokens=200", "--set", "language=zh-CN"}
	out, errOut, code := runExec(t, env, append(common, "--output", "stream-json", "read big.txt")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var init struct {
		SessionID string `json:"session_id"`
	}
	_ = json.NewDecoder(strings.NewReader(out)).Decode(&init)
	out, errOut, code = runExec(t, env, append(common, "--session", init.SessionID, "/compact")...)
	if code != 0 || !strings.Contains(out, "一个较大的工具输出已缩短为开头和结尾") || strings.Contains(out, "shortened") {
		t.Fatalf("/compact: exit %d\n%s\n%s", code, out, errOut)
	}
}
