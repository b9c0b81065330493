package snapshot

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// Every snapshot that stores something adds one small pack. Lookups probe
// each pack's index, so past maxPacks the small ones are merged, the way
// git's geometric repacking does it: packs are taken from the largest
// down, and the first one smaller than twice everything below it is merged
// with all of those. The big first snapshot's pack is left alone, so a
// merge copies what the last few dozen snapshots added, not the store.
// Entries are copied byte for byte, nothing is recompressed, and nothing
// is dropped: removing what no snapshot reaches is garbage collection's
// job (Prune, DeleteSession), which walks every snapshot's trees.

// mergeSplit returns the index from which packs (sorted largest first)
// are merged; at least two are.
func mergeSplit(sizes []int64) int {
	n := len(sizes)
	below := make([]int64, n+1) // below[i]: the sizes after i, summed
	for i := n - 1; i >= 0; i-- {
		below[i] = below[i+1] + sizes[i]
	}
	split := n
	for i := 0; i < n; i++ {
		if sizes[i] < 2*below[i+1] {
			split = i
			break
		}
	}
	return max(0, min(split, n-2))
}

// mergePacksLocked merges the small packs into one.
func (s *Store) mergePacksLocked() error {
	s.objs.mu.Lock()
	packs := append([]*packIndex(nil), s.objs.packs...)
	s.objs.mu.Unlock()
	if len(packs) < 2 {
		return nil
	}
	sort.Slice(packs, func(i, j int) bool { return packs[i].size > packs[j].size })
	sizes := make([]int64, len(packs))
	for i, p := range packs {
		sizes[i] = p.size
	}
	merge := packs[mergeSplit(sizes):]
	pw := newPackWriter(filepath.Join(s.objs.dir, "pack"))
	seen := map[plumbing.Hash]bool{}
	var old []string
	for _, p := range merge {
		old = append(old, p.name)
		if err := s.copyPack(pw, p, seen); err != nil {
			pw.abort()
			return err
		}
	}
	name, err := pw.finish()
	if err != nil {
		return err
	}
	for i, o := range old {
		if o == name { // identical content: the rename replaced it
			old = append(old[:i], old[i+1:]...)
			break
		}
	}
	return s.afterPack(nil, nil, old)
}

// copyPack appends every object of p not seen yet to pw.
func (s *Store) copyPack(pw *packWriter, p *packIndex, seen map[plumbing.Hash]bool) error {
	ps, err := openPackSource(s.objs.dir, p)
	if err != nil {
		return fmt.Errorf("snapshot: open pack %s: %w", p.name, err)
	}
	defer ps.f.Close()
	iter, err := p.idx.Entries()
	if err != nil {
		return err
	}
	defer iter.Close()
	for {
		e, err := iter.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if seen[e.Hash] {
			continue
		}
		seen[e.Hash] = true
		if raw, ok := ps.raw(e.Hash); ok {
			if err := pw.addRaw(e.Hash, raw); err != nil {
				return err
			}
			continue
		}
		// A delta (the pack came from git itself): store it whole.
		obj, err := s.git().EncodedObject(plumbing.AnyObject, e.Hash)
		if err != nil {
			return fmt.Errorf("snapshot: object %s missing during pack merge: %w", e.Hash, err)
		}
		r, err := obj.Reader()
		if err != nil {
			return err
		}
		buf := make([]byte, obj.Size())
		_, err = io.ReadFull(r, buf)
		r.Close()
		if err == nil {
			err = pw.add(e.Hash, obj.Type(), buf)
		}
		if err != nil {
			return err
		}
	}
}
