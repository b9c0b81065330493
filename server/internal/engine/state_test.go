package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
)

// A database written before the edit toggle's key was renamed keeps its
// "editEnabled" value: the engine reads it, and flipping the toggle moves
// it to the current key.
func TestEditToggleFromAnOlderDatabase(t *testing.T) {
	x := enginetest.New(t, nil)
	ctx := context.Background()
	s, err := x.E.Sessions.Create(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if !x.E.EditEnabled(ctx, s.ID) {
		t.Fatal("the toggle defaults to on")
	}
	if err := x.E.Store.SetState(ctx, s.ID, "editEnabled", json.RawMessage(`false`)); err != nil {
		t.Fatal(err)
	}
	if x.E.EditEnabled(ctx, s.ID) {
		t.Fatal("the old key's value was not read")
	}
	x.Reopen(nil)
	if l, err := x.E.Sessions.Load(ctx, s.ID, 0, 10); err != nil || l.EditEnabled {
		t.Fatalf("after a restart the toggle is %v (%v), want off", l.EditEnabled, err)
	}
	if err := x.E.SetEditEnabled(ctx, s.ID, true); err != nil {
		t.Fatal(err)
	}
	all, _ := x.E.Store.AllState(ctx, s.ID)
	if _, old := all["editEnabled"]; old || string(all["edit_enabled"]) != "true" || !x.E.EditEnabled(ctx, s.ID) {
		t.Fatalf("state after flipping: %v", all)
	}
}
