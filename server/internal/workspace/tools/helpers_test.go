package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func newEnv(t *testing.T) (*Env, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &Env{Roots: []string{root}, Files: NewFileTracker(), Settings: Settings{EditEnabled: true}, TurnID: "t1"}, root
}

func write(t *testing.T, path string, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readBack(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func call(t *testing.T, tool Tool, env *Env, args map[string]any) Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	r, err := tool.Run(context.Background(), env, raw)
	if err != nil {
		t.Fatalf("%s(%s): Go error %v", tool.Name(), raw, err)
	}
	return r
}

func wantOK(t *testing.T, r Result, contains ...string) {
	t.Helper()
	if !r.OK {
		t.Fatalf("want OK, got failure: %s", r.Output)
	}
	for _, c := range contains {
		if !strings.Contains(r.Output, c) {
			t.Fatalf("output lacks %q:\n%s", c, r.Output)
		}
	}
}

func wantFail(t *testing.T, r Result, contains ...string) {
	t.Helper()
	if r.OK {
		t.Fatalf("want failure, got OK: %s", r.Output)
	}
	for _, c := range contains {
		if !strings.Contains(r.Output, c) {
			t.Fatalf("failure lacks %q:\n%s", c, r.Output)
		}
	}
}

// fakeHost is an editor stand-in; safe for concurrent use.
type fakeHost struct {
	mu    sync.Mutex
	dirty map[string]string
	diags []Diagnostic
}

func (h *fakeHost) DirtyBuffer(_ context.Context, path string) (string, bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.dirty[path]
	return s, ok, nil
}

func (h *fakeHost) Diagnostics(_ context.Context, path string) ([]Diagnostic, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Diagnostic
	for _, d := range h.diags {
		if path == "" || d.Path == path {
			out = append(out, d)
		}
	}
	return out, nil
}

// fakeApprover answers with fixed decisions and can run a hook while "the
// user is deciding"; safe for concurrent use.
type fakeApprover struct {
	mu        sync.Mutex
	edit      func(EditProposal) EditDecision
	shell     func(ShellProposal) ShellDecision
	proposals []EditProposal
	shells    []ShellProposal
}

func (a *fakeApprover) ConfirmEdit(_ context.Context, p EditProposal) (EditDecision, error) {
	a.mu.Lock()
	a.proposals = append(a.proposals, p)
	a.mu.Unlock()
	return a.edit(p), nil
}

func (a *fakeApprover) ConfirmShell(_ context.Context, p ShellProposal) (ShellDecision, error) {
	a.mu.Lock()
	a.shells = append(a.shells, p)
	a.mu.Unlock()
	return a.shell(p), nil
}
