package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// The fixture reads back through session/load as a real run would: the
// run anchored on the parent's investigate call, its newest 200 messages,
// the rest counted as earlier, and a page that starts with an assistant
// message (no result split from its call).
func TestFixtureLoadsAsALongSubAgentRun(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "sessions.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	ctx := context.Background()
	id, err := write(ctx, dir, "Long investigation", 250)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Options{Roots: []string{t.TempDir()}, StateDir: dir, Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	l, err := eng.Sessions.Load(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.SubAgents) != 1 {
		t.Fatalf("%d sub-agent runs, want 1", len(l.SubAgents))
	}
	run := l.SubAgents[0]
	if len(run.Messages) != 200 || run.Earlier != 50 {
		t.Fatalf("run: %d messages, %d earlier; want 200 and 50", len(run.Messages), run.Earlier)
	}
	if first := run.Messages[0]; first.Role != store.RoleAssistant || !strings.HasPrefix(first.Parts[0].Text, "Step 50:") {
		t.Fatalf("the page starts with %s %+v, want Step 50", first.Role, first.Parts)
	}
	list, err := eng.Sessions.List(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Title != "Long investigation" {
		t.Fatalf("the history lists %+v, want only the parent", list)
	}
}

func TestFixtureRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]struct {
		dir  string
		n    int
		want string
	}{
		"no state dir":    {"", 250, "-state-dir is required"},
		"too short a run": {t.TempDir(), 10, "at least 42"},
		"no store there":  {t.TempDir(), 250, "no store in"},
	} {
		if _, err := write(ctx, c.dir, "t", c.n); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}
