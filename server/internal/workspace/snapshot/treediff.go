package snapshot

import (
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// fileDiff is one file (never a directory) that differs between two trees;
// from or to is nil when the file is absent on that side.
type fileDiff struct {
	path     string
	from, to *object.TreeEntry
}

// diffTrees lists the files that differ between trees a and b (ZeroHash
// for "no tree"), sorted by path. Identical subtrees are skipped without
// being read, which keeps the diff of two big snapshots cheap.
func (s *Store) diffTrees(a, b plumbing.Hash) ([]fileDiff, error) {
	var out []fileDiff
	err := s.diffTreesInto("", a, b, &out)
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, err
}

func (s *Store) diffTreesInto(prefix string, a, b plumbing.Hash, out *[]fileDiff) error {
	if a == b {
		return nil
	}
	ta, err := s.readTree(a)
	if err != nil {
		return err
	}
	tb, err := s.readTree(b)
	if err != nil {
		return err
	}
	for name, ea := range ta {
		path := joinRel(prefix, name)
		eb := tb[name]
		aDir := ea.Mode == filemode.Dir
		bDir := eb != nil && eb.Mode == filemode.Dir
		switch {
		case eb == nil:
			if aDir {
				err = s.diffTreesInto(path, ea.Hash, plumbing.ZeroHash, out)
			} else {
				*out = append(*out, fileDiff{path: path, from: ea})
			}
		case aDir && bDir:
			err = s.diffTreesInto(path, ea.Hash, eb.Hash, out)
		case aDir: // directory replaced by a file
			*out = append(*out, fileDiff{path: path, to: eb})
			err = s.diffTreesInto(path, ea.Hash, plumbing.ZeroHash, out)
		case bDir: // file replaced by a directory
			*out = append(*out, fileDiff{path: path, from: ea})
			err = s.diffTreesInto(path, plumbing.ZeroHash, eb.Hash, out)
		case ea.Hash != eb.Hash || ea.Mode != eb.Mode:
			*out = append(*out, fileDiff{path: path, from: ea, to: eb})
		}
		if err != nil {
			return err
		}
	}
	for name, eb := range tb {
		if _, ok := ta[name]; ok {
			continue
		}
		path := joinRel(prefix, name)
		if eb.Mode == filemode.Dir {
			err = s.diffTreesInto(path, plumbing.ZeroHash, eb.Hash, out)
		} else {
			*out = append(*out, fileDiff{path: path, to: eb})
		}
		if err != nil {
			return err
		}
	}
	return nil
}
