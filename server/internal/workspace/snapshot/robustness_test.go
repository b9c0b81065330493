package snapshot

import (
	"bytes"
	"context"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A file rewritten while snapshots run must be stored whole (one of the
// versions), and the stat cache must not remember a stale hash for it.
func TestFileEditedDuringSnapshot(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	for i := 0; i < 200; i++ {
		writeFile(t, root, filepath.Join("pkg", string(rune('a'+i%26)), "f"+strings.Repeat("x", i%7)+".txt"), strings.Repeat("filler ", 50+i), 0o644)
	}
	versions := []string{strings.Repeat("A", 512<<10), strings.Repeat("B", 700<<10), strings.Repeat("C", 300<<10)}
	writeFile(t, root, "hot.txt", versions[0], 0o644)
	writeFile(t, root, "inplace.txt", versions[0], 0o644)
	s := openTestStore(t, root, Options{})

	var stop atomic.Bool
	var wg sync.WaitGroup
	var last atomic.Int64
	wg.Add(1)
	go func() { // editors save by rename; plain tools rewrite in place
		defer wg.Done()
		for i := 1; !stop.Load(); i++ {
			v := versions[i%len(versions)]
			tmp := filepath.Join(root, ".hot.tmp")
			os.WriteFile(tmp, []byte(v), 0o644)
			os.Rename(tmp, filepath.Join(root, "hot.txt"))
			os.WriteFile(filepath.Join(root, "inplace.txt"), []byte(v), 0o644)
			last.Store(int64(i % len(versions)))
		}
	}()
	var ids []string
	for i := 0; i < 15; i++ {
		info, created, err := s.Snapshot(context.Background(), Meta{Reason: "concurrent"})
		if err != nil {
			stop.Store(true)
			wg.Wait()
			t.Fatal(err)
		}
		if created {
			ids = append(ids, info.ID)
		}
	}
	stop.Store(true)
	wg.Wait()
	for _, id := range ids {
		data, _, ok, err := s.FileAt(id, "hot.txt")
		if err != nil || !ok {
			t.Fatalf("hot.txt missing from %s: %v", id, err)
		}
		if !isVersion(data, versions) {
			t.Fatalf("snapshot %s holds a torn hot.txt (%d bytes)", id[:8], len(data))
		}
	}
	// Once the writer stops, the next snapshot must hold exactly what is on
	// disk, whatever the cache saw during the storm.
	final, _ := snap(t, s, "after")
	for _, p := range []string{"hot.txt", "inplace.txt"} {
		data, _, _, err := s.FileAt(final.ID, p)
		if err != nil || string(data) != versions[last.Load()] {
			t.Fatalf("final snapshot of %s is stale (%d bytes, want %d)", p, len(data), len(versions[last.Load()]))
		}
	}
	fsck(t, s)
}

func isVersion(data []byte, versions []string) bool {
	for _, v := range versions {
		if bytes.Equal(data, []byte(v)) {
			return true
		}
	}
	return false
}

func TestStatCacheAvoidsRereadingUnchangedFiles(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	for i := 0; i < 50; i++ {
		writeFile(t, root, filepath.Join("d", string(rune('a'+i%5)), strings.Repeat("n", i+1)), "content", 0o644)
	}
	ageFiles(t, root)
	s := openTestStore(t, root, Options{})
	snap(t, s, "one")
	if s.lastHashed != 50 {
		t.Fatalf("first scan hashed %d files, want 50", s.lastHashed)
	}
	writeFile(t, root, "d/a/n", "changed", 0o644)
	snap(t, s, "two")
	if s.lastHashed != 1 {
		t.Fatalf("second scan hashed %d files, want 1", s.lastHashed)
	}
	// The cache survives reopening the store.
	s.Close()
	s2, err := Open(filepath.Dir(filepath.Dir(s.Dir())), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, _, err := s2.Snapshot(context.Background(), Meta{}); err != nil {
		t.Fatal(err)
	}
	if s2.lastHashed != 1 { // d/a/n is still racy (just written)
		t.Fatalf("reopened scan hashed %d files, want 1", s2.lastHashed)
	}
	// A damaged cache is ignored, not trusted.
	os.WriteFile(s2.cachePath(), []byte("GVSTAT1\ngarbage that fails the checksum"), 0o644)
	s2.Close()
	s3, err := Open(filepath.Dir(filepath.Dir(s.Dir())), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	writeFile(t, root, "d/b/nn", "changed too", 0o644)
	info, created, err := s3.Snapshot(context.Background(), Meta{})
	if err != nil || !created || s3.lastHashed != 50 {
		t.Fatalf("snapshot with damaged cache: created=%v hashed=%d err=%v", created, s3.lastHashed, err)
	}
	if data, _, _, _ := s3.FileAt(info.ID, "d/b/nn"); string(data) != "changed too" {
		t.Fatal("snapshot with damaged cache is wrong")
	}
}

func TestPruneAndDeleteSessionReclaimSpace(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	s := openTestStore(t, root, Options{PruneGrace: -1})
	ctx := context.Background()
	var ids []string
	for i := 0; i < 6; i++ {
		// Incompressible, so the blobs outweigh the store's fixed files
		// (a periodic pattern compresses to almost nothing).
		big := make([]byte, 64<<10)
		rand.New(rand.NewSource(int64(i))).Read(big)
		writeFile(t, root, "blob.bin", string(big)+string(rune(i)), 0o644)
		sess := "keep"
		if i%2 == 1 {
			sess = "drop"
		}
		info, _, err := s.Snapshot(ctx, Meta{SessionID: sess, Turn: i})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, info.ID)
	}
	sizeBefore, _ := s.Size()
	n, err := s.DeleteSession("drop")
	if err != nil || n != 3 {
		t.Fatalf("DeleteSession = %d, %v", n, err)
	}
	if _, err := s.Get(ids[1]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted snapshot still found: %v", err)
	}
	n, err = s.Prune(0, 2)
	if err != nil || n != 1 {
		t.Fatalf("Prune(count 2) = %d, %v", n, err)
	}
	list, _ := s.List("")
	if len(list) != 2 || list[0].ID != ids[4] || list[1].ID != ids[2] {
		t.Fatalf("after prune: %+v", list)
	}
	sizeAfter, _ := s.Size()
	if sizeAfter >= sizeBefore/2 {
		t.Fatalf("prune did not reclaim space: %d -> %d bytes", sizeBefore, sizeAfter)
	}
	fsck(t, s)
	// Remaining snapshots are intact and restorable.
	if _, err := s.Restore(ctx, ids[2]); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(root, "blob.bin"))
	if data[len(data)-1] != 2 {
		t.Fatal("restored wrong content after prune")
	}
	// Age-based pruning removes everything older than the limit.
	time.Sleep(5 * time.Millisecond)
	n, err = s.Prune(time.Millisecond, 100)
	if err != nil || n != 3 { // two left plus the "before restore" one
		t.Fatalf("Prune(age) = %d, %v", n, err)
	}
	if list, _ := s.List(""); len(list) != 0 {
		t.Fatalf("age prune left %d snapshots", len(list))
	}
	fsck(t, s)
	// Nothing left in the store, and the workspace itself is untouched.
	if _, err := os.Stat(filepath.Join(root, "blob.bin")); err != nil {
		t.Fatal("pruning touched the workspace")
	}
	// A new snapshot after everything was collected must re-store blobs
	// the stat cache still remembered.
	info, created := snap(t, s, "fresh")
	if !created {
		t.Fatal("no snapshot after pruning all")
	}
	if data, _, ok, err := s.FileAt(info.ID, "blob.bin"); err != nil || !ok || len(data) == 0 {
		t.Fatalf("blob lost after GC: %v", err)
	}
	fsck(t, s)
}

func TestLooseObjectsArePacked(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	for i := 0; i < 40; i++ {
		writeFile(t, root, filepath.Join("src", strings.Repeat("f", i+1)+".go"), strings.Repeat("line\n", i+1), 0o644)
	}
	s := openTestStore(t, root, Options{LooseObjectLimit: 10})
	s1, _ := snap(t, s, "one")
	if err := s.Pack(); err != nil { // waits for the background pack
		t.Fatal(err)
	}
	if n, _ := s.objs.countLoose(); n != 0 {
		t.Fatalf("%d loose objects left after packing", n)
	}
	packs, _ := filepath.Glob(filepath.Join(s.Dir(), "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	runGit(t, s.Dir(), "--git-dir="+s.Dir(), "verify-pack", strings.TrimSuffix(packs[0], ".pack")+".idx")
	fsck(t, s)
	writeFile(t, root, "src/f.go", "changed", 0o644)
	snap(t, s, "two")
	if _, err := s.Restore(context.Background(), s1.ID); err != nil {
		t.Fatal(err)
	}
	if readFile(t, root, "src/f.go") != "line\n" {
		t.Fatal("restore from packed objects failed")
	}
	fsck(t, s)
}

func TestBadInputsFailClearlyAndChangeNothing(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	writeFile(t, root, "a.txt", "a", 0o644)
	notDir := filepath.Join(root, "a.txt")
	for _, c := range []struct{ state, root string }{
		{"", root}, {t.TempDir(), ""}, {t.TempDir(), filepath.Join(root, "missing")}, {t.TempDir(), notDir},
	} {
		if _, err := Open(c.state, c.root, Options{}); err == nil {
			t.Errorf("Open(%q, %q) succeeded", c.state, c.root)
		}
	}
	s := openTestStore(t, root, Options{})
	s1, _ := snap(t, s, "one")
	writeFile(t, root, "a.txt", "changed", 0o644)
	state := workspaceState(t, root)
	ctx := context.Background()

	for _, id := range []string{"", "abc", "0000000000000000000000000000000000000000", "zzzz"} {
		if _, err := s.Restore(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Restore(%q) = %v, want ErrNotFound", id, err)
		}
		if _, err := s.Diff(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Diff(%q) = %v, want ErrNotFound", id, err)
		}
	}
	for _, p := range []string{"", "../outside", "/etc/passwd", ".git/config", "a/.git/HEAD", "."} {
		if _, err := s.RestoreFile(ctx, s1.ID, p); err == nil {
			t.Errorf("RestoreFile(%q) succeeded", p)
		}
		if _, _, _, err := s.FileAt(s1.ID, p); err == nil {
			t.Errorf("FileAt(%q) succeeded", p)
		}
	}
	if _, err := s.RestoreFile(ctx, s1.ID, "nowhere.txt"); !errors.Is(err, ErrNotFound) {
		t.Errorf("RestoreFile(missing) = %v, want ErrNotFound", err)
	}
	if _, err := s.DeleteSession(""); err == nil {
		t.Error("DeleteSession(\"\") succeeded")
	}
	assertState(t, state, workspaceState(t, root))
	if list, _ := s.List(""); len(list) != 1 {
		t.Fatalf("failed calls created snapshots: %d", len(list))
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := s.Snapshot(cctx, Meta{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Snapshot(cancelled) = %v", err)
	}
	if _, err := s.Restore(cctx, s1.ID); !errors.Is(err, context.Canceled) {
		t.Errorf("Restore(cancelled) = %v", err)
	}
	assertState(t, state, workspaceState(t, root))
	if list, _ := s.List(""); len(list) != 1 {
		t.Fatalf("cancelled calls created snapshots: %d", len(list))
	}

	s.Close()
	if _, _, err := s.Snapshot(ctx, Meta{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Snapshot after Close = %v", err)
	}
	if _, err := s.List(""); !errors.Is(err, ErrClosed) {
		t.Errorf("List after Close = %v", err)
	}
}

func TestUnreadableFileIsReportedNotFatal(t *testing.T) {
	if os.Geteuid() == 0 {
		// root reads anything; use a fifo, which is never snapshotted.
		isolateGitEnv(t)
		root := t.TempDir()
		writeFile(t, root, "a.txt", "a", 0o644)
		if err := mkfifo(filepath.Join(root, "pipe")); err != nil {
			t.Fatal(err)
		}
		s := openTestStore(t, root, Options{})
		info, _ := snap(t, s, "one")
		if info.SkippedCount != 1 || info.Skipped[0] != (Skipped{Path: "pipe", Reason: SkipSpecial}) {
			t.Fatalf("Skipped = %+v", info.Skipped)
		}
		return
	}
	isolateGitEnv(t)
	root := t.TempDir()
	writeFile(t, root, "a.txt", "a", 0o644)
	writeFile(t, root, "secret.txt", "s", 0o000)
	s := openTestStore(t, root, Options{})
	info, _ := snap(t, s, "one")
	if info.SkippedCount != 1 || info.Skipped[0] != (Skipped{Path: "secret.txt", Reason: SkipUnreadable}) {
		t.Fatalf("Skipped = %+v", info.Skipped)
	}
}

// Someone may run git maintenance on the shadow repository: packed refs
// and delta-compressed packs must keep working, including through GC.
func TestStoreSurvivesGitGcOnShadowRepo(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	base := strings.Repeat("shared line of text that deltas well\n", 400)
	var ids []string
	s := openTestStore(t, root, Options{PruneGrace: -1})
	for i := 0; i < 4; i++ {
		writeFile(t, root, "doc.txt", base+strings.Repeat("x", i), 0o644)
		writeFile(t, root, "n.txt", string(rune('a'+i)), 0o644)
		info, _ := snap(t, s, "v")
		ids = append(ids, info.ID)
	}
	runGit(t, s.Dir(), "--git-dir="+s.Dir(), "gc", "-q", "--aggressive", "--prune=now")
	if _, err := os.Stat(filepath.Join(s.Dir(), "packed-refs")); err != nil {
		t.Fatalf("git gc did not pack refs: %v", err)
	}
	list, err := s.List("")
	if err != nil || len(list) != 4 {
		t.Fatalf("List after git gc = %d, %v", len(list), err)
	}
	if data, _, ok, err := s.FileAt(ids[1], "doc.txt"); err != nil || !ok || string(data) != base+"x" {
		t.Fatalf("FileAt after git gc: ok=%v err=%v", ok, err)
	}
	if _, err := s.Restore(context.Background(), ids[0]); err != nil {
		t.Fatal(err)
	}
	if readFile(t, root, "doc.txt") != base {
		t.Fatal("restore after git gc")
	}
	if n, err := s.Prune(0, 2); err != nil || n != 2 {
		t.Fatalf("Prune after git gc = %d, %v", n, err)
	}
	list, _ = s.List("")
	if len(list) != 2 {
		t.Fatalf("%d snapshots after prune, want 2", len(list))
	}
	for _, in := range list {
		if _, _, ok, err := s.FileAt(in.ID, "doc.txt"); err != nil || !ok {
			t.Fatalf("snapshot %s damaged by GC of a delta pack: %v", in.ID[:8], err)
		}
	}
	fsck(t, s)
}
