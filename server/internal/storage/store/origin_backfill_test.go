package store

import (
	"context"
	"database/sql"
	_ "embed"
	"path/filepath"
	"testing"
)

//go:embed testdata/v3_plan_session.sql
var v3PlanSession string

// A store from before messages had an origin: opening it migrates, and
// the scheduler's prompts and a sub-agent's task, recognisable by the
// engine's fixed texts, come back as the engine's, while everything the
// person typed (even text that resembles a prompt) stays theirs.
func TestMigrationBackfillsOriginOfOldStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := migrations()
	if err != nil || len(scripts) < 5 {
		t.Fatalf("%d migrations, err %v", len(scripts), err)
	}
	for _, s := range append(scripts[:3:3], v3PlanSession, `PRAGMA user_version = 3`) {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	want := map[string]string{
		"u1": OriginUser, "x1": OriginPlanStep, "u2": OriginUser, "x2": OriginPlanResume,
		"e1": OriginPlanStep, "f1": OriginPlanFinal, "u3": OriginUser, "u4": OriginUser,
		"ct1": OriginSubagentTask, "ct2": OriginUser, "rt1": OriginUser,
	}
	for id, origin := range want {
		m, err := s.GetMessage(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if m.Origin != origin {
			t.Errorf("%s (%.40q): origin %q, want %q", id, m.Parts[0].Text, m.Origin, origin)
		}
	}
	// Nothing else changed: the texts and the person's messages are intact.
	if n := countRows(t, s, "messages", "role = 'user'"); n != len(want) {
		t.Fatalf("%d user messages, want %d", n, len(want))
	}
	page, err := s.LoadMessages(ctx, "s1", 0, 50)
	if err != nil || len(page.Messages) != 12 || page.Messages[0].Parts[0].Text != "Add a multiply function to calc.go, with a test." {
		t.Fatalf("page %+v, err %v", page, err)
	}
}
