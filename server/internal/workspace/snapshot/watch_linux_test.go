package snapshot

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// TestWatcherFallsBackToFullScans: a reopened store (a restarted process)
// and an overflowed watcher both scan in full, and say why in the log.
func TestWatcherFallsBackToFullScans(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.txt", "a", 0o644)
	state := t.TempDir()
	ctx := context.Background()
	open := func() *Store {
		s, err := Open(state, root, Options{Watch: true})
		if err != nil {
			t.Fatal(err)
		}
		if !s.WaitWatcher(ctx) {
			t.Skip("no file watcher on this platform")
		}
		return s
	}
	s := open()
	for i := 0; i < 3; i++ {
		writeFile(t, root, "a.txt", fmt.Sprint("a", i), 0o644)
		if _, _, err := s.Snapshot(ctx, Meta{}); err != nil {
			t.Fatal(err)
		}
		if s.lastIncremental != (i > 0) {
			t.Fatalf("snapshot %d: incremental=%v", i, s.lastIncremental)
		}
	}
	// Overflow: the kernel dropped events, so nothing can be skipped.
	w := s.watch.(*inotifyWatcher)
	w.mu.Lock()
	w.needFull = "the watcher's event queue overflowed"
	w.mu.Unlock()
	writeFile(t, root, "b.txt", "b", 0o644)
	if _, _, err := s.Snapshot(ctx, Meta{}); err != nil || s.lastIncremental {
		t.Fatalf("after an overflow: incremental=%v err=%v", s.lastIncremental, err)
	}
	s.Close()
	// A restart knows nothing of what changed while it was down.
	writeFile(t, root, "c.txt", "c", 0o644)
	s = open()
	defer s.Close()
	info, _, err := s.Snapshot(ctx, Meta{})
	if err != nil || s.lastIncremental {
		t.Fatalf("after a restart: incremental=%v err=%v", s.lastIncremental, err)
	}
	if _, _, ok, _ := s.FileAt(info.ID, "c.txt"); !ok {
		t.Fatal("a file made while no process ran is missing")
	}
}

// Two stores on one shadow repository (two editor windows) each keep
// their own barrier; a cookie directory that vanished is recreated.
func TestWatchersShareAStore(t *testing.T) {
	root := t.TempDir()
	state := t.TempDir()
	ctx := context.Background()
	var stores []*Store
	for i := 0; i < 2; i++ {
		s, err := Open(state, root, Options{Watch: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if !s.WaitWatcher(ctx) {
			t.Skip("no file watcher")
		}
		stores = append(stores, s)
	}
	os.RemoveAll(stores[0].watch.(*inotifyWatcher).cookieDir)
	for round := 0; round < 3; round++ {
		for i, s := range stores {
			writeFile(t, root, fmt.Sprintf("f%d.txt", i), fmt.Sprint(round), 0o644)
			info, _, err := s.Snapshot(ctx, Meta{})
			if err != nil {
				t.Fatal(err)
			}
			if round > 0 && !s.lastIncremental {
				t.Fatalf("store %d round %d: a full scan", i, round)
			}
			if b, _, _, _ := s.FileAt(info.ID, fmt.Sprintf("f%d.txt", i)); string(b) != fmt.Sprint(round) {
				t.Fatalf("store %d round %d: snapshot holds %q", i, round, b)
			}
		}
	}
}
