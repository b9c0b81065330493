package trust

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

type recorder struct {
	mu     sync.Mutex
	events []string
	loaded chan struct{}
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, s)
}

func (r *recorder) gate(roots []string, on bool) *Gate {
	r.loaded = make(chan struct{}, 4)
	return New(Options{Roots: roots, Trusted: on,
		Reset:    func() { r.add("reset") },
		Report:   func() { r.add("report") },
		Load:     func() { r.add("load"); r.loaded <- struct{}{} },
		Notice:   func(level, msg, action string) { r.add("notice " + level + " " + action + ": " + msg) },
		Withdraw: func(action string) { r.add("withdraw " + action) },
		Tr:       fmt.Sprintf,
	})
}

// An untrusted workspace's notice names each gated kind with the files
// found (folder-prefixed with several roots) and carries the trust action.
func TestReportNamesGatedConfig(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{filepath.Join(a, ".mcp.json"), filepath.Join(b, ".govibe", "hooks.json"), filepath.Join(b, ".claude", "agents", "x.md")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := &recorder{}
	r.gate([]string{a, b}, false).Report()
	want := []string{"report", "notice info trustWorkspace: This workspace is not trusted, so its project configuration that can run things was not loaded: " +
		"hooks (b/.govibe/hooks.json); MCP servers (a/.mcp.json); custom agents (b/.claude/agents). Trust the workspace to use it."}
	if strings.Join(r.events, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q", r.events)
	}
	// Trusted, or nothing gated present: only the catalogs report.
	r = &recorder{}
	r.gate([]string{a}, true).Report()
	r2 := &recorder{}
	r2.gate([]string{t.TempDir()}, false).Report()
	if len(r.events) != 1 || len(r2.events) != 1 {
		t.Fatalf("trusted %q, empty %q", r.events, r2.events)
	}
}

// Granting trust drops and reports the gated catalogs, withdraws the
// untrusted notice and loads what trust let in; withdrawing it drops
// them again without loading; setting the same trust does nothing.
func TestSet(t *testing.T) {
	r := &recorder{}
	g := r.gate([]string{t.TempDir()}, false)
	g.Set(false)
	if len(r.events) != 0 {
		t.Fatalf("no change: %q", r.events)
	}
	g.Set(true)
	<-r.loaded
	if !g.Trusted() || strings.Join(r.events, ",") != "reset,report,withdraw trustWorkspace,load" {
		t.Fatalf("grant: %v %q", g.Trusted(), r.events)
	}
	r.events = nil
	g.Set(false)
	if g.Trusted() || strings.Join(r.events, ",") != "reset,report" {
		t.Fatalf("withdraw: %q", r.events)
	}
}
