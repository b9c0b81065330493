package memory

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

type memKV map[string]json.RawMessage

func (k memKV) GetState(_ context.Context, sid, key string) (json.RawMessage, bool, error) {
	v, ok := k[sid+"/"+key]
	return v, ok, nil
}
func (k memKV) SetState(_ context.Context, sid, key string, v json.RawMessage) error {
	k[sid+"/"+key] = v
	return nil
}
func (k memKV) SetStateRelaxed(ctx context.Context, sid, key string, v json.RawMessage) error {
	return k.SetState(ctx, sid, key, v)
}
func (k memKV) DeleteState(_ context.Context, sid, key string) error {
	delete(k, sid+"/"+key)
	return nil
}

func changes(cs ...snapshot.Change) func(context.Context) ([]snapshot.Change, error) {
	return func(context.Context) ([]snapshot.Change, error) { return cs, nil }
}

// A turn's gaps (made or changed files the inventory does not list,
// removed files it still lists) are given once, merged across turns; a
// root without an inventory, the memory folder itself and a failing diff
// add nothing.
func TestReminderNotesAndTakesOnce(t *testing.T) {
	ctx := context.Background()
	root, bare := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".govibe", "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	inv := "src/listed.go — the entry\nsrc/gone.go — removed\ndata.go\n"
	if err := os.WriteFile(filepath.Join(root, L2Inventory), []byte(inv), 0o644); err != nil {
		t.Fatal(err)
	}
	kv := memKV{}
	r := NewReminder(kv, []string{root}, nil)
	if got := r.Take(ctx, "s"); got != "" {
		t.Fatalf("nothing noted yet: %q", got)
	}
	r.Note(ctx, "s", []TurnChanges{
		{Root: root, Diff: changes(
			snapshot.Change{Path: "src/new.go", Kind: snapshot.Deleted},     // created by the turn
			snapshot.Change{Path: "src/listed.go", Kind: snapshot.Modified}, // listed: fine
			snapshot.Change{Path: "a.go", Kind: snapshot.Modified},          // data.go does not list a.go
			snapshot.Change{Path: "src/gone.go", Kind: snapshot.Recreated},  // removed, still listed
			snapshot.Change{Path: ".govibe/memory/L2-inventory.md", Kind: snapshot.Modified},
		)},
		{Root: bare, Diff: changes(snapshot.Change{Path: "x.go", Kind: snapshot.Deleted})},
	})
	r.Note(ctx, "s", []TurnChanges{{Root: root, Diff: func(context.Context) ([]snapshot.Change, error) { return nil, errors.New("no snapshot") }}})
	want := "Memory: .govibe/memory/L2-inventory.md does not list a.go, src/new.go and still lists removed src/gone.go; update it (one line per file)."
	if got := r.Take(ctx, "s"); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if got := r.Take(ctx, "s"); got != "" {
		t.Fatalf("the reminder is given once: %q", got)
	}
}

// With several roots the names carry their root's folder name; a long
// list is cut with a count.
func TestReminderRootsAndLongLists(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := filepath.Join(dir, "api")
	for _, d := range []string{a, filepath.Join(dir, "web")} {
		if err := os.MkdirAll(filepath.Join(d, ".govibe", "memory"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, L2Inventory), []byte("nothing yet\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var cs []snapshot.Change
	for i := 0; i < 22; i++ {
		cs = append(cs, snapshot.Change{Path: string(rune('a'+i)) + ".go", Kind: snapshot.Deleted})
	}
	r := NewReminder(memKV{}, []string{a, filepath.Join(dir, "web")}, nil)
	r.Note(ctx, "s", []TurnChanges{{Root: a, Diff: changes(cs...)}})
	got := r.Take(ctx, "s")
	want := "Memory: .govibe/memory/L2-inventory.md does not list api/a.go, api/b.go, api/c.go, api/d.go, api/e.go, api/f.go, api/g.go, api/h.go, api/i.go, api/j.go, api/k.go, api/l.go, api/m.go, api/n.go, api/o.go, api/p.go, api/q.go, api/r.go, api/s.go, api/t.go and 2 more; update it (one line per file)."
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// A path is listed only as a whole path, not as the tail of a longer one.
func TestMentionsPath(t *testing.T) {
	for _, c := range []struct {
		text, path string
		want       bool
	}{
		{"data.go\n", "a.go", false},
		{"- a.go: x", "a.go", true},
		{"src/a.go", "a.go", false},
		{"(a.go)", "a.go", true},
		{"a.go.bak a.go", "a.go", true},
	} {
		if got := mentionsPath(c.text, c.path); got != c.want {
			t.Errorf("mentionsPath(%q, %q) = %v", c.text, c.path, got)
		}
	}
}
