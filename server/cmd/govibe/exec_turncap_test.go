package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// toucher is a model that always calls `touch rI.txt`, I counting its
// requests from 0.
func toucher(t *testing.T) *scripted.Server {
	model := scripted.Start(t)
	var mu sync.Mutex
	n := 0
	model.SetHandler(func(*scripted.RecordedRequest) scripted.Reply {
		mu.Lock()
		defer mu.Unlock()
		i := n
		n++
		return scripted.Reply{ToolCalls: []scripted.ToolCall{tc(fmt.Sprintf("c%d", i), "run_shell_command", fmt.Sprintf(`{"command":"touch r%d.txt"}`, i))}}
	})
	return model
}

func touched(t *testing.T, ws string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(ws, "r*.txt"))
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	return m
}

// TestExecTurnCapIsExact: --max-turns N runs at most N tool rounds, then
// lets the model answer once (its calls are answered "not run"); 0 runs no
// tool at all and says so. The maxInteractions setting is the same cap.
func TestExecTurnCapIsExact(t *testing.T) {
	for _, tt := range []struct {
		name     string
		args     []string
		rounds   int
		wantNote string
	}{
		{"zero", []string{"--max-turns", "0"}, 0, "No tool was run: govibe.maxInteractions is 0"},
		{"three", []string{"--max-turns", "3"}, 3, "Stopped after 3 tool rounds"},
		{"setting", []string{"--set", "maxInteractions=2"}, 2, "Stopped after 2 tool rounds"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ws := gitRepo(t, map[string]string{"a.txt": "x\n"})
			model := toucher(t)
			args := append([]string{"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "m",
				"--approve", "all"}, tt.args...)
			out, errOut, code := runExec(t, []string{"GOVIBE_API_KEY=sk-test-abcdefgh12345678", "HOME=" + t.TempDir()}, append(args, "touch files forever")...)
			if code != 3 {
				t.Fatalf("exit %d, want 3\n%s\n%s", code, out, errOut)
			}
			var want []string
			for i := 0; i < tt.rounds; i++ {
				want = append(want, fmt.Sprintf("r%d.txt", i))
			}
			if got := touched(t, ws); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("files %v, want %v\n%s", got, want, out)
			}
			if n := len(model.Requests()); n != tt.rounds+1 {
				t.Fatalf("%d requests, want %d (the rounds and the answer)", n, tt.rounds+1)
			}
			if !strings.Contains(out, tt.wantNote) {
				t.Fatalf("stdout lacks %q:\n%s", tt.wantNote, out)
			}
			if _, err := os.Stat(filepath.Join(ws, fmt.Sprintf("r%d.txt", tt.rounds))); err == nil {
				t.Fatal("the call past the cap ran")
			}
		})
	}
}
