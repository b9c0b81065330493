package snapshot

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/klauspost/compress/zlib"
)

// Reading objects. Every snapshot adds a small pack, and go-git only sees
// a new pack by opening its storage again, which then decodes every pack
// index (the first snapshot's holds every file) and starts with an empty
// cache. The hot reads (trees for diffs and restore plans, blobs for
// restores) therefore go through the object store, which knows each pack's
// index already, with a cache of recent trees; go-git serves the rest
// (objects a manual `git gc` stored as deltas) from a storage reopened
// only when it is needed.

// read returns a stored object's type and content. ok is false when the
// object is neither loose nor a whole (non-delta) entry of a known pack.
func (o *objectStore) read(h plumbing.Hash) (t plumbing.ObjectType, data []byte, ok bool, err error) {
	o.mu.Lock()
	packs := o.packs
	o.mu.Unlock()
	for _, p := range packs {
		off, ferr := p.idx.FindOffset(h)
		if ferr != nil {
			continue
		}
		return p.readAt(int64(off))
	}
	t, data, err = readLoose(o.loosePath(h))
	if os.IsNotExist(err) {
		return 0, nil, false, nil
	}
	return t, data, err == nil, err
}

// readAt inflates the pack entry at off; ok is false for a delta. The pack
// is opened for each read, not kept open: on Windows an open file cannot
// be deleted, and another process's garbage collection deletes packs.
func (p *packIndex) readAt(off int64) (plumbing.ObjectType, []byte, bool, error) {
	f, err := os.Open(filepath.Join(p.dir, p.name+".pack"))
	if err != nil {
		return 0, nil, false, fmt.Errorf("snapshot: open pack %s: %w", p.name, err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(io.NewSectionReader(f, off, 1<<62), 4096)
	c, err := br.ReadByte()
	if err != nil {
		return 0, nil, false, fmt.Errorf("snapshot: read pack %s: %w", p.name, err)
	}
	t := plumbing.ObjectType((c >> 4) & 7)
	size := int64(c & 0x0f)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if c, err = br.ReadByte(); err != nil {
			return 0, nil, false, fmt.Errorf("snapshot: read pack %s: %w", p.name, err)
		}
		size |= int64(c&0x7f) << shift
	}
	switch t {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
	default:
		return 0, nil, false, nil // a delta: go-git resolves it
	}
	zr, err := zlib.NewReader(br)
	if err != nil {
		return 0, nil, false, fmt.Errorf("snapshot: corrupt pack entry in %s: %w", p.name, err)
	}
	defer zr.Close()
	data := make([]byte, size)
	if _, err := io.ReadFull(zr, data); err != nil {
		return 0, nil, false, fmt.Errorf("snapshot: corrupt pack entry in %s: %w", p.name, err)
	}
	return t, data, true, nil
}

// git returns go-git's view of the repository, reopened if packs changed
// since it was opened.
func (s *Store) git() *filesystem.Storage {
	if s.storageStale {
		s.openStorage()
	}
	return s.storage
}

// treeCacheMax bounds the tree cache (entries, not bytes): a 100k-file
// workspace has about a thousand directories, so this holds several
// snapshots' changed trees and one whole tree.
const treeCacheMax = 16384

// cacheTree remembers a tree's entries; they are shared, never modified.
func (s *Store) cacheTree(h plumbing.Hash, entries []object.TreeEntry) {
	if len(s.trees) >= treeCacheMax {
		s.trees = nil // start over: simpler than LRU, and rare
	}
	if s.trees == nil {
		s.trees = map[plumbing.Hash][]object.TreeEntry{}
	}
	s.trees[h] = entries
}

// treeEntries returns a tree's entries, from the cache, the object store
// or go-git.
func (s *Store) treeEntries(h plumbing.Hash) ([]object.TreeEntry, error) {
	if e, ok := s.trees[h]; ok {
		return e, nil
	}
	t, data, ok, err := s.objs.read(h)
	if err != nil {
		return nil, fmt.Errorf("snapshot: read tree %s: %w", h, err)
	}
	var tree object.Tree
	if ok {
		if t != plumbing.TreeObject {
			return nil, fmt.Errorf("snapshot: object %s is a %s, not a tree", h, t)
		}
		obj := &plumbing.MemoryObject{}
		obj.SetType(plumbing.TreeObject)
		obj.Write(data)
		if err := tree.Decode(obj); err != nil {
			return nil, fmt.Errorf("snapshot: read tree %s: %w", h, err)
		}
	} else {
		gt, err := object.GetTree(s.git(), h)
		if err != nil {
			return nil, fmt.Errorf("snapshot: read tree %s: %w", h, err)
		}
		tree.Entries = gt.Entries
	}
	s.cacheTree(h, tree.Entries)
	return tree.Entries, nil
}

func (s *Store) readTree(h plumbing.Hash) (map[string]*object.TreeEntry, error) {
	m := map[string]*object.TreeEntry{}
	if h.IsZero() {
		return m, nil
	}
	entries, err := s.treeEntries(h)
	if err != nil {
		return nil, err
	}
	for i := range entries {
		m[entries[i].Name] = &entries[i]
	}
	return m, nil
}

// lookupPath finds the entry of a file at path in tree root.
func (s *Store) lookupPath(root plumbing.Hash, path string) (*object.TreeEntry, error) {
	h := root
	var found *object.TreeEntry
	for _, name := range strings.Split(path, "/") {
		if found != nil && found.Mode != filemode.Dir {
			return nil, ErrNotFound
		}
		entries, err := s.treeEntries(h)
		if err != nil {
			return nil, err
		}
		found = nil
		for i := range entries {
			if entries[i].Name == name {
				found = &entries[i]
				break
			}
		}
		if found == nil {
			return nil, ErrNotFound
		}
		h = found.Hash
	}
	if found == nil {
		return nil, ErrNotFound
	}
	return found, nil
}

func (s *Store) readBlob(h plumbing.Hash) ([]byte, error) {
	t, data, ok, err := s.objs.read(h)
	if err != nil {
		return nil, fmt.Errorf("snapshot: read blob %s: %w", h, err)
	}
	if ok {
		if t != plumbing.BlobObject {
			return nil, fmt.Errorf("snapshot: object %s is a %s, not a blob", h, t)
		}
		return data, nil
	}
	obj, err := s.git().EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, fmt.Errorf("snapshot: read blob %s: %w", h, err)
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("snapshot: read blob %s: %w", h, err)
	}
	defer r.Close()
	data, err = io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("snapshot: read blob %s: %w", h, err)
	}
	return data, nil
}
