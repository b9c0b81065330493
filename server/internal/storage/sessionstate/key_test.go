package sessionstate

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/storage/store"
)

func openStore(t *testing.T) (*store.Store, string) {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "s.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	sess, err := s.CreateSession(context.Background(), store.NewSession{Title: "t", Kind: store.KindChat})
	if err != nil {
		t.Fatal(err)
	}
	return s, sess.ID
}

func TestTypedRoundTrip(t *testing.T) {
	s, sid := openStore(t)
	ctx := context.Background()
	if _, ok, err := Get(ctx, s, sid, BTW); ok || err != nil {
		t.Fatalf("empty state: ok=%v err=%v", ok, err)
	}
	want := BTWState{Active: true, Start: 7}
	if err := Set(ctx, s, sid, BTW, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := Get(ctx, s, sid, BTW)
	if err != nil || !ok || got != want {
		t.Fatalf("got %+v ok=%v err=%v, want %+v", got, ok, err, want)
	}
	raw, _, _ := s.GetState(ctx, sid, "btw")
	if string(raw) != `{"active":true,"start":7}` {
		t.Fatalf("stored form changed: %s", raw)
	}
	if err := Delete(ctx, s, sid, BTW); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := Get(ctx, s, sid, BTW); ok {
		t.Fatal("deleted value still read")
	}
}

// A database written before the rename holds "editEnabled": it is read,
// and the first write moves it to the current name.
func TestLegacyEditToggleIsReadAndMoved(t *testing.T) {
	s, sid := openStore(t)
	ctx := context.Background()
	if err := s.SetState(ctx, sid, "editEnabled", json.RawMessage(`false`)); err != nil {
		t.Fatal(err)
	}
	on, ok, err := Get(ctx, s, sid, EditEnabled)
	if err != nil || !ok || on {
		t.Fatalf("legacy value: on=%v ok=%v err=%v, want false stored", on, ok, err)
	}
	if err := Set(ctx, s, sid, EditEnabled, true); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.GetState(ctx, sid, "editEnabled"); ok {
		t.Fatal("the legacy key survived a write")
	}
	if raw, ok, _ := s.GetState(ctx, sid, "edit_enabled"); !ok || string(raw) != "true" {
		t.Fatalf("current key: %s %v", raw, ok)
	}
	// The current name wins over a stale legacy copy.
	_ = s.SetState(ctx, sid, "editEnabled", json.RawMessage(`false`))
	if on, _, _ := Get(ctx, s, sid, EditEnabled); !on {
		t.Fatal("a stale legacy value shadowed the current one")
	}
	if err := Delete(ctx, s, sid, EditEnabled); err != nil {
		t.Fatal(err)
	}
	all, _ := s.AllState(ctx, sid)
	if len(all) != 0 {
		t.Fatalf("delete left %v", all)
	}
}

func TestCorruptValueIsAnError(t *testing.T) {
	s, sid := openStore(t)
	ctx := context.Background()
	_ = s.SetState(ctx, sid, Turns.Name(), json.RawMessage(`"three"`))
	if _, ok, err := Get(ctx, s, sid, Turns); ok || !errors.Is(err, ErrCorrupt) {
		t.Fatalf("ok=%v err=%v, want ErrCorrupt", ok, err)
	}
	if n := Lookup(ctx, s, sid, Turns); n != 0 {
		t.Fatalf("Lookup of a corrupt value = %d, want 0", n)
	}
}

func TestTurnUsageKeysAreDistinct(t *testing.T) {
	if TurnUsage(3).Name() != "usage/turn/3" || TurnUsage(3).Name() == TurnUsage(4).Name() {
		t.Fatalf("turn usage keys: %q %q", TurnUsage(3).Name(), TurnUsage(4).Name())
	}
}

// GetMany reads one key of many sessions: the current name wins, a legacy
// copy fills in for a session without one, and a value that does not
// decode is left out as Lookup would read it (the zero value).
func TestGetManyReadsEverySessionOnce(t *testing.T) {
	s, a := openStore(t)
	ctx := context.Background()
	var ids []string
	for i := 0; i < 4; i++ {
		sess, err := s.CreateSession(ctx, store.NewSession{Title: "t"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sess.ID)
	}
	b, c, d, none := ids[0], ids[1], ids[2], ids[3]
	_ = Set(ctx, s, a, EditEnabled, true)
	_ = s.SetState(ctx, b, "editEnabled", json.RawMessage(`false`)) // legacy only
	_ = s.SetState(ctx, c, "editEnabled", json.RawMessage(`true`))  // stale legacy copy
	_ = s.SetState(ctx, c, "edit_enabled", json.RawMessage(`false`))
	_ = s.SetState(ctx, d, "edit_enabled", json.RawMessage(`"yes"`)) // corrupt
	got, err := GetMany(ctx, s, []string{a, b, c, d, none}, EditEnabled)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{a: true, b: false, c: false}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for sid, v := range want {
		if g, ok := got[sid]; !ok || g != v {
			t.Errorf("session %s: got %v (present %v), want %v", sid, g, ok, v)
		}
	}
	// Each matches what Get returns for the same session.
	for _, sid := range []string{a, b, c} {
		one, _, _ := Get(ctx, s, sid, EditEnabled)
		if one != got[sid] {
			t.Errorf("session %s: GetMany %v, Get %v", sid, got[sid], one)
		}
	}
}
