package snapshot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Sessions used to live in per-window storage slots, each with its own
// shadow repositories; they now live in one folder per workspace. Import
// brings an old slot's snapshots of a root into the workspace's store, so
// a merged session's turns can still be rolled back.

// Exists reports whether stateDir holds a snapshot store for root, without
// creating one as Open would.
func Exists(stateDir, root string) bool {
	absRoot, err1 := filepath.Abs(root)
	absState, err2 := filepath.Abs(stateDir)
	if err1 != nil || err2 != nil {
		return false
	}
	_, err := os.Stat(filepath.Join(absState, "snapshots", rootKey(absRoot), "HEAD"))
	return !errors.Is(err, fs.ErrNotExist) && err == nil
}

// Import copies into s every snapshot of from (the same root's store in
// another state directory) that s lacks: the commit with its trees and
// blobs, in one new pack, then its ref; and from's restore records. It
// returns how many snapshots it copied. Both stores are locked meanwhile,
// s first (every importer takes them in that order).
func (s *Store) Import(from *Store) (int, error) {
	if err := s.lock(); err != nil {
		return 0, err
	}
	defer s.unlock()
	if err := from.lock(); err != nil {
		return 0, err
	}
	defer from.unlock()
	have, err := s.loadInfos()
	if err != nil {
		return 0, err
	}
	theirs, err := from.loadInfos()
	if err != nil {
		return 0, err
	}
	known := map[string]bool{}
	for _, in := range have {
		known[in.ID] = true
	}
	var todo []Info
	for _, in := range theirs {
		if !known[in.ID] {
			todo = append(todo, in)
		}
	}
	if len(todo) == 0 {
		return 0, nil
	}
	s.objs.beginPack()
	for _, in := range todo {
		if err := s.importObject(from, plumbing.NewHash(in.tree), true); err != nil {
			s.objs.endPack(false)
			return 0, err
		}
		if err := s.importObject(from, plumbing.NewHash(in.ID), false); err != nil {
			s.objs.endPack(false)
			return 0, err
		}
	}
	wrote, err := s.objs.endPack(true)
	if err != nil {
		return 0, fmt.Errorf("snapshot: import: %w", err)
	}
	if wrote {
		s.storageStale = true
		s.packStamp = s.readPackStamp()
	}
	for _, in := range todo {
		h := plumbing.NewHash(in.ID)
		if err := s.git().SetReference(plumbing.NewHashReference(plumbing.ReferenceName(refPrefix+in.ID), h)); err != nil {
			return 0, fmt.Errorf("snapshot: import: write ref: %w", err)
		}
	}
	s.mergeRestoreLog(from.readRestoreLog())
	return len(todo), nil
}

// importObject copies object h from from, a tree with everything under it
// (children before their tree: an object present here has what it names).
func (s *Store) importObject(from *Store, h plumbing.Hash, tree bool) error {
	if h.IsZero() || s.objs.has(h) {
		return nil
	}
	if tree {
		entries, err := from.treeEntries(h)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.Mode == filemode.Submodule {
				continue // a commit of another repository: never stored
			}
			if err := s.importObject(from, e.Hash, e.Mode == filemode.Dir); err != nil {
				return err
			}
		}
	}
	t, data, err := from.readObject(h)
	if err != nil {
		return err
	}
	got, err := s.objs.put(t, data)
	if err == nil && got != h {
		err = fmt.Errorf("object %s read back as %s", h, got)
	}
	if err != nil {
		return fmt.Errorf("snapshot: import %s: %w", h, err)
	}
	return nil
}

// readObject returns any stored object, from the object store or, for a
// delta a manual git gc made, through go-git.
func (s *Store) readObject(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	t, data, ok, err := s.objs.read(h)
	if err != nil || ok {
		return t, data, err
	}
	obj, err := s.git().EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return 0, nil, fmt.Errorf("snapshot: read %s: %w", h, err)
	}
	r, err := obj.Reader()
	if err != nil {
		return 0, nil, err
	}
	defer r.Close()
	data, err = io.ReadAll(r)
	return obj.Type(), data, err
}

// mergeRestoreLog adds the records s lacks, keeping the log in time order.
func (s *Store) mergeRestoreLog(theirs []restoreRecord) {
	mine := s.readRestoreLog()
	seen := map[restoreRecord]bool{}
	for _, r := range mine {
		seen[restoreRecord{time: r.time.UTC(), id: r.id}] = true
	}
	added := false
	for _, r := range theirs {
		if !seen[restoreRecord{time: r.time.UTC(), id: r.id}] {
			mine = append(mine, r)
			added = true
		}
	}
	if !added {
		return
	}
	sort.SliceStable(mine, func(i, j int) bool { return mine[i].time.Before(mine[j].time) })
	s.writeRestoreLog(mine)
}
