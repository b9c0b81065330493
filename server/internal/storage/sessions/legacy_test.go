package sessions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/storage/store"
)

type legacyStore struct {
	merged map[string]bool
	fail   error
	calls  []string
}

func (s *legacyStore) Merged(_ context.Context, src string) (bool, error) { return s.merged[src], nil }
func (s *legacyStore) MergeFrom(_ context.Context, src string) (store.MergeResult, error) {
	s.calls = append(s.calls, src)
	return store.MergeResult{}, s.fail
}

type legacyOthers struct{ imported, adopted []string }

func (o *legacyOthers) Import(dir string) (int, error) {
	o.imported = append(o.imported, dir)
	return 0, nil
}
func (o *legacyOthers) AdoptWorkspaceSkills(dir string) error {
	o.adopted = append(o.adopted, dir)
	return nil
}

// An old slot is merged once, snapshots and skills before its sessions;
// the workspace's own folder, a folder without chats and one already
// merged are left alone; a failed merge is a notice, to be retried.
func TestMergeLegacyOrderAndSkips(t *testing.T) {
	state, slot, empty, done := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	for _, d := range []string{state, slot, done} {
		if err := os.WriteFile(filepath.Join(d, "sessions.db"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st := &legacyStore{merged: map[string]bool{filepath.Join(done, "sessions.db"): true}}
	o := &legacyOthers{}
	d := LegacyDeps{Store: st, Snapshots: o, Skills: o, Tr: fmt.Sprintf, Log: zap.NewNop()}
	if n := MergeLegacy(context.Background(), d, state, []string{state, slot, empty, done}); len(n) != 0 {
		t.Fatalf("notices %q", n)
	}
	if len(st.calls) != 1 || st.calls[0] != filepath.Join(slot, "sessions.db") || len(o.imported) != 1 || o.imported[0] != slot || len(o.adopted) != 1 {
		t.Fatalf("merged %q, snapshots %q, skills %q; want only %s", st.calls, o.imported, o.adopted, slot)
	}
	st.fail = errors.New("disk full")
	if n := MergeLegacy(context.Background(), d, state, []string{slot}); len(n) != 1 {
		t.Fatalf("a failed merge gave notices %q, want one", n)
	}
}
