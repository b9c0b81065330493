package snapshot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// mutator makes random changes of every kind a workspace sees.
type mutator struct {
	t    *testing.T
	root string
	rng  *rand.Rand
	n    int
}

func (m *mutator) abs(rel string) string { return filepath.Join(m.root, filepath.FromSlash(rel)) }

// pick returns a random existing path (files or dirs, per want) or "".
func (m *mutator) pick(wantDir bool) string {
	var out []string
	filepath.WalkDir(m.root, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == m.root {
			return nil
		}
		if d.IsDir() == wantDir {
			rel, _ := filepath.Rel(m.root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(out) == 0 {
		return ""
	}
	return out[m.rng.IntN(len(out))]
}

func (m *mutator) newPath() string {
	m.n++
	dirs := []string{"", "a/", "a/b/", "c/", "d/e/f/", "node_modules/x/", "logs/"}
	exts := []string{".go", ".txt", ".log", ""}
	return dirs[m.rng.IntN(len(dirs))] + fmt.Sprintf("f%d", m.n) + exts[m.rng.IntN(len(exts))]
}

func (m *mutator) content() []byte {
	n := m.rng.IntN(80)
	if m.rng.IntN(10) == 0 {
		n = 300 // over the test's MaxFileSize
	}
	return []byte(strings.Repeat(string(rune('a'+m.rng.IntN(26))), n))
}

func (m *mutator) write(rel string, data []byte) {
	os.MkdirAll(filepath.Dir(m.abs(rel)), 0o755)
	os.WriteFile(m.abs(rel), data, 0o644)
}

// step applies one random change and says what it was.
func (m *mutator) step() string {
	switch op := m.rng.IntN(12); op {
	case 0, 1:
		p := m.newPath()
		m.write(p, m.content())
		return "create " + p
	case 2:
		p := m.pick(false)
		if p == "" {
			return "modify: none"
		}
		// Same size, same mtime: only the content and the ctime change.
		fi, err := os.Stat(m.abs(p))
		if err != nil {
			return "modify: gone"
		}
		data, _ := os.ReadFile(m.abs(p))
		for i := range data {
			data[i] = 'A' + byte(m.rng.IntN(26))
		}
		os.WriteFile(m.abs(p), data, 0o644)
		os.Chtimes(m.abs(p), fi.ModTime(), fi.ModTime())
		return "modify " + p
	case 3:
		p := m.pick(false)
		os.Remove(m.abs(p))
		return "delete " + p
	case 4:
		p := m.pick(false)
		if p == "" {
			return "rename: none"
		}
		q := m.newPath()
		os.MkdirAll(filepath.Dir(m.abs(q)), 0o755)
		os.Rename(m.abs(p), m.abs(q))
		return "rename " + p + " " + q
	case 5:
		p := m.pick(false)
		if p == "" {
			return "chmod: none"
		}
		fi, err := os.Stat(m.abs(p))
		if err == nil {
			os.Chmod(m.abs(p), fi.Mode()^0o111)
		}
		return "chmod " + p
	case 6:
		d := m.pick(true)
		if d == "" {
			return "dir->file: none"
		}
		os.RemoveAll(m.abs(d))
		m.write(d, m.content())
		return "dir->file " + d
	case 7:
		p := m.pick(false)
		if p == "" {
			return "file->dir: none"
		}
		os.Remove(m.abs(p))
		m.write(p+"/inner.txt", m.content())
		return "file->dir " + p
	case 8:
		d := m.pick(true)
		if d == "" || strings.Contains(d, "/") && m.rng.IntN(2) == 0 {
			return "rename dir: none"
		}
		q := fmt.Sprintf("moved%d", m.n)
		m.n++
		os.Rename(m.abs(d), m.abs(q))
		// Touch the moved tree: its old watches must not report under the old name.
		m.write(q+"/after-move.txt", m.content())
		return "rename dir " + d + " " + q
	case 9:
		d := m.pick(true)
		if d == "" {
			d = ""
		}
		rules := []string{"*.log\n", "logs/\n", "", "*.txt\n!keep.txt\n", "e\n"}
		m.write(strings.TrimPrefix(d+"/.gitignore", "/"), []byte(rules[m.rng.IntN(len(rules))]))
		return "gitignore in " + d
	case 10:
		p := m.newPath()
		os.MkdirAll(filepath.Dir(m.abs(p)), 0o755)
		os.Symlink("f1.txt", m.abs(p))
		return "symlink " + p
	default:
		// A directory made with its content before any watch can be added.
		d := fmt.Sprintf("deep%d/x/y", m.n)
		m.n++
		m.write(d+"/z.txt", m.content())
		return "mkdir -p " + d
	}
}

// TestIncrementalSnapshotsEqualFullScans: after random changes of every
// kind (and restores), the snapshot a store takes, with or without the
// watcher, has exactly the tree a full scan by an independent store finds.
func TestIncrementalSnapshotsEqualFullScans(t *testing.T) {
	isolateGitEnv(t)
	for _, watch := range []bool{false, true} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("watch=%v/seed=%d", watch, seed), func(t *testing.T) {
				propertyRun(t, watch, seed, 40)
			})
		}
	}
}

func propertyRun(t *testing.T, watch bool, seed uint64, rounds int) {
	root := t.TempDir()
	m := &mutator{t: t, root: root, rng: rand.New(rand.NewPCG(seed, 99))}
	for i := 0; i < 20; i++ {
		m.step()
	}
	opts := Options{MaxFileSize: 200, Watch: watch}
	s := openTestStore(t, root, opts)
	ref := openTestStore(t, root, Options{MaxFileSize: 200})
	ctx := context.Background()
	if watch && !s.WaitWatcher(ctx) {
		t.Skip("no file watcher on this platform")
	}
	var ids []string
	incremental := 0
	for round := 0; round < rounds; round++ {
		var did []string
		for k := m.rng.IntN(5) + 1; k > 0; k-- {
			did = append(did, m.step())
		}
		if len(ids) > 2 && m.rng.IntN(6) == 0 {
			id := ids[m.rng.IntN(len(ids))]
			if _, err := s.Restore(ctx, id); err != nil {
				t.Fatalf("round %d: restore: %v", round, err)
			}
			did = append(did, "restore "+id[:8])
		}
		got, _, err := s.Snapshot(ctx, Meta{Message: fmt.Sprint(round)})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if s.lastIncremental {
			incremental++
		}
		want, _, err := ref.Snapshot(ctx, Meta{Message: fmt.Sprint(round)})
		if err != nil {
			t.Fatal(err)
		}
		if got.tree != want.tree || got.SkippedCount != want.SkippedCount {
			t.Fatalf("round %d after %v:\nsnapshot tree %s (%d skipped), full scan %s (%d skipped)\n%v",
				round, did, got.tree, got.SkippedCount, want.tree, want.SkippedCount, treeDiffForTest(s, ref, got, want))
		}
		ids = append(ids, got.ID)
	}
	// A barrier timeout on a very busy machine legitimately falls back to a
	// full scan; most snapshots must still be incremental.
	if watch && incremental < rounds/2 {
		t.Fatalf("only %d of %d snapshots used the watcher", incremental, rounds)
	}
	if !watch && incremental != 0 {
		t.Fatal("a store without a watcher scanned incrementally")
	}
}

func treeDiffForTest(s, ref *Store, got, want Info) string {
	var b strings.Builder
	for _, p := range []struct {
		st   *Store
		info Info
	}{{s, got}, {ref, want}} {
		files := map[string]string{}
		p.st.mu.Lock()
		var walk func(prefix string, h string)
		walk = func(prefix, h string) {
			tree, err := p.st.readTree(plumbing.NewHash(h))
			if err != nil {
				return
			}
			for name, e := range tree {
				if e.Mode.IsFile() {
					files[joinRel(prefix, name)] = e.Hash.String()[:8]
				} else {
					walk(joinRel(prefix, name), e.Hash.String())
				}
			}
		}
		walk("", p.info.tree)
		p.st.mu.Unlock()
		fmt.Fprintf(&b, "%v\n", files)
	}
	return b.String()
}
