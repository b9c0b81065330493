package snapshot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/govibe/govibe/server/internal/util/fsatomic"
	"github.com/govibe/govibe/server/internal/workspace/filelock"
)

// maybePackInBackground schedules packing of loose objects once there are
// more than Options.LooseObjectLimit of them (scans write packs; loose
// objects come from older versions), and the merge of small packs once
// there are more than maxPacks. It runs after the caller
// releases the mutex and holds it while packing, so the snapshot that
// crossed the limit returns at once and the next operation waits.
// Called with the mutex held.
func (s *Store) maybePackInBackground() {
	s.objs.mu.Lock()
	manyPacks := len(s.objs.packs) > maxPacks
	s.objs.mu.Unlock()
	if s.packing || (!manyPacks && s.objs.looseCount() <= s.opts.LooseObjectLimit) {
		return
	}
	s.packing = true
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.mu.Lock()
		defer s.mu.Unlock()
		s.packing = false
		if s.closed {
			return
		}
		if err := s.lockFileLocked(); err != nil {
			s.bgErr = err
			return
		}
		defer filelock.Unlock(s.lockf)
		var err error
		if manyPacks {
			// Lookups probe every pack: merge the small ones (packmerge.go).
			err = s.mergePacksLocked()
		}
		if err == nil && s.objs.looseCount() > s.opts.LooseObjectLimit {
			err = s.packLooseLocked()
		}
		if err != nil {
			s.bgErr = err
		}
	}()
}

// maxPacks is how many packs may accumulate before they are merged.
const maxPacks = 16

// Pack moves all loose objects into a pack now (waiting for any background
// packing first) and reports a background packing failure, if any.
func (s *Store) Pack() error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.unlock()
	if err := s.bgErr; err != nil {
		s.bgErr = nil
		return err
	}
	return s.packLooseLocked()
}

// looseObjects lists the loose objects with their modification times.
func (s *Store) looseObjects() (map[plumbing.Hash]time.Time, error) {
	out := map[plumbing.Hash]time.Time{}
	for i := 0; i < 256; i++ {
		fan := fmt.Sprintf("%02x", i)
		entries, err := os.ReadDir(filepath.Join(s.objs.dir, fan))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("snapshot: list loose objects: %w", err)
		}
		for _, e := range entries {
			name := e.Name()
			if len(name) != 38 || strings.HasPrefix(name, "tmp_") {
				continue
			}
			h := plumbing.NewHash(fan + name)
			if h.String() != fan+name {
				continue
			}
			var mt time.Time
			if fi, err := e.Info(); err == nil {
				mt = fi.ModTime()
			}
			out[h] = mt
		}
	}
	return out, nil
}

func (s *Store) packLooseLocked() error {
	loose, err := s.looseObjects()
	if err != nil {
		return err
	}
	if len(loose) < 2 {
		return nil
	}
	pw := newPackWriter(filepath.Join(s.objs.dir, "pack"))
	for h := range loose {
		t, content, err := readLoose(s.objs.loosePath(h))
		if err == nil {
			err = pw.add(h, t, content)
		}
		if err != nil {
			pw.abort()
			return err
		}
	}
	if _, err := pw.finish(); err != nil {
		return err
	}
	return s.afterPack(loose, func(plumbing.Hash, time.Time) bool { return true }, nil)
}

// afterPack installs a new set of packs: it drops the listed old packs and
// every loose object del approves, then refreshes readers.
func (s *Store) afterPack(loose map[plumbing.Hash]time.Time, del func(plumbing.Hash, time.Time) bool, oldPacks []string) error {
	for _, name := range oldPacks {
		// Index first, so readers stop seeing the pack before it goes;
		// then the companions git itself may have written.
		for _, ext := range []string{".idx", ".pack", ".bitmap", ".rev", ".mtimes", ".keep", ".promisor"} {
			os.Remove(filepath.Join(s.objs.dir, "pack", name+ext))
		}
	}
	if len(oldPacks) > 0 {
		// Auxiliary indexes from a manual `git gc` describe the old packs
		// and commits; stale ones make git itself fail, and nothing here
		// needs them.
		os.Remove(filepath.Join(s.objs.dir, "pack", "multi-pack-index"))
		os.Remove(filepath.Join(s.objs.dir, "info", "commit-graph"))
		os.RemoveAll(filepath.Join(s.objs.dir, "info", "commit-graphs"))
	}
	for h, mt := range loose {
		if del(h, mt) {
			if err := os.Remove(s.objs.loosePath(h)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("snapshot: remove packed loose object: %w", err)
			}
		}
	}
	if err := s.objs.reloadPacks(); err != nil {
		return err
	}
	if loose == nil {
		// A merge of packs: no loose object moved.
		s.storageStale = true
		s.packStamp = s.readPackStamp()
		return nil
	}
	n, err := s.objs.countLoose()
	if err != nil {
		return err
	}
	s.objs.mu.Lock()
	s.objs.loose = n
	s.objs.mu.Unlock()
	s.storageStale = true
	s.packStamp = s.readPackStamp()
	return nil
}

// Prune deletes snapshots older than maxAge and all but the newest
// maxCount (zero or negative means DefaultMaxAge / DefaultMaxCount), then
// reclaims the space of objects no remaining snapshot uses. It returns how
// many snapshots were deleted.
func (s *Store) Prune(maxAge time.Duration, maxCount int) (int, error) {
	if maxAge <= 0 {
		maxAge = DefaultMaxAge
	}
	if maxCount <= 0 {
		maxCount = DefaultMaxCount
	}
	cutoff := time.Now().Add(-maxAge)
	return s.removeWhere(func(i int, in Info) bool {
		return i >= maxCount || in.Time.Before(cutoff)
	})
}

// DeleteSession deletes every snapshot of a session and reclaims their
// space. It returns how many snapshots were deleted.
func (s *Store) DeleteSession(sessionID string) (int, error) {
	if sessionID == "" {
		return 0, errors.New("snapshot: DeleteSession needs a session id")
	}
	return s.removeWhere(func(_ int, in Info) bool { return in.SessionID == sessionID })
}

func (s *Store) removeWhere(match func(i int, in Info) bool) (int, error) {
	if err := s.lock(); err != nil {
		return 0, err
	}
	defer s.unlock()
	infos, err := s.loadInfos()
	if err != nil {
		return 0, err
	}
	removed := 0
	for i, in := range infos {
		if !match(i, in) {
			continue
		}
		if err := removeRef(s.storage, in.ID); err != nil {
			return removed, fmt.Errorf("snapshot: remove snapshot %s: %w", in.ID, err)
		}
		delete(s.infos, in.ID)
		removed++
	}
	if removed == 0 {
		return 0, nil
	}
	return removed, s.gcLocked()
}

// gcLocked rewrites the store as one pack holding exactly the objects the
// remaining snapshots reach. Unreachable loose objects younger than
// PruneGrace survive (another process may be about to reference them).
func (s *Store) gcLocked() error {
	reachable, err := s.reachable()
	if err != nil {
		return err
	}
	loose, err := s.looseObjects()
	if err != nil {
		return err
	}
	s.objs.mu.Lock()
	packs := s.objs.packs
	s.objs.mu.Unlock()
	var sources []*packSource
	defer func() {
		for _, ps := range sources {
			ps.f.Close()
		}
	}()
	var oldPacks []string
	for _, p := range packs {
		ps, err := openPackSource(s.objs.dir, p)
		if err != nil {
			return fmt.Errorf("snapshot: open pack %s: %w", p.name, err)
		}
		sources = append(sources, ps)
		oldPacks = append(oldPacks, p.name)
	}
	var newPack string
	if len(reachable) > 0 {
		pw := newPackWriter(filepath.Join(s.objs.dir, "pack"))
		for h, t := range reachable {
			if err := s.copyObject(pw, sources, loose, h, t); err != nil {
				pw.abort()
				return err
			}
		}
		if newPack, err = pw.finish(); err != nil {
			return err
		}
	}
	for i, name := range oldPacks {
		if name == newPack { // identical content: the rename replaced it
			oldPacks = append(oldPacks[:i], oldPacks[i+1:]...)
			break
		}
	}
	for _, ps := range sources {
		ps.f.Close()
	}
	sources = nil
	graceCut := time.Now().Add(-s.opts.PruneGrace)
	err = s.afterPack(loose, func(h plumbing.Hash, mt time.Time) bool {
		if _, ok := reachable[h]; ok {
			return true
		}
		return s.opts.PruneGrace < 0 || mt.Before(graceCut)
	}, oldPacks)
	if err != nil {
		return err
	}
	s.treeMemo = nil
	s.trees = nil
	s.cache.keepOnly(reachableSet(reachable))
	if err := s.saveCache(); err != nil {
		return err
	}
	// Tell other processes their stat caches and memos may name deleted
	// objects (see refreshLocked).
	stamp := fmt.Sprintf("%d.%d\n", time.Now().UnixNano(), os.Getpid())
	if err := fsatomic.WriteFile(s.gcMarkerPath(), []byte(stamp), 0o644); err != nil {
		return fmt.Errorf("snapshot: write gc marker: %w", err)
	}
	s.gcStamp = stamp
	return nil
}

func reachableSet(m map[plumbing.Hash]plumbing.ObjectType) map[plumbing.Hash]struct{} {
	out := make(map[plumbing.Hash]struct{}, len(m))
	for h := range m {
		out[h] = struct{}{}
	}
	return out
}

func (s *Store) copyObject(pw *packWriter, sources []*packSource, loose map[plumbing.Hash]time.Time,
	h plumbing.Hash, t plumbing.ObjectType) error {
	for _, ps := range sources {
		if raw, ok := ps.raw(h); ok {
			return pw.addRaw(h, raw)
		}
	}
	if _, ok := loose[h]; ok {
		lt, content, err := readLoose(s.objs.loosePath(h))
		if err != nil {
			return err
		}
		return pw.add(h, lt, content)
	}
	// Packed as a delta by someone else's git: let go-git resolve it.
	obj, err := s.git().EncodedObject(t, h)
	if err != nil {
		return fmt.Errorf("snapshot: object %s missing during gc: %w", h, err)
	}
	r, err := obj.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	buf := make([]byte, obj.Size())
	if _, err := io.ReadFull(r, buf); err != nil {
		return err
	}
	return pw.add(h, t, buf)
}

// reachable walks every snapshot ref down to its blobs.
func (s *Store) reachable() (map[plumbing.Hash]plumbing.ObjectType, error) {
	infos, err := s.loadInfos()
	if err != nil {
		return nil, err
	}
	out := map[plumbing.Hash]plumbing.ObjectType{}
	var walkTree func(h plumbing.Hash) error
	walkTree = func(h plumbing.Hash) error {
		if _, ok := out[h]; ok {
			return nil
		}
		out[h] = plumbing.TreeObject
		entries, err := s.treeEntries(h)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.Mode == filemode.Dir {
				if err := walkTree(e.Hash); err != nil {
					return err
				}
			} else if e.Mode != filemode.Submodule {
				out[e.Hash] = plumbing.BlobObject
			}
		}
		return nil
	}
	for _, in := range infos {
		out[plumbing.NewHash(in.ID)] = plumbing.CommitObject
		if err := walkTree(plumbing.NewHash(in.tree)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Size returns the bytes the store occupies on disk (apparent file sizes).
func (s *Store) Size() (int64, error) {
	if err := s.lock(); err != nil {
		return 0, err
	}
	defer s.unlock()
	var total int64
	err := filepath.WalkDir(s.dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				total += fi.Size()
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("snapshot: size: %w", err)
	}
	return total, nil
}
