package snapshot

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ReasonBeforeRestore is the reason of the safety snapshot every restore
// takes first, so that the restore can itself be undone.
const ReasonBeforeRestore = "before restore"

// keptAsUsers explains a file a restore leaves although the snapshot lacks it.
const keptAsUsers = "no GoVibe snapshot since then holds this content, so it is your work; restores never delete it"

// planned is one change with the snapshot entry to write (nil for Deleted).
type planned struct {
	Change
	entry *object.TreeEntry
}

// plan turns a tree diff (current → target) into changes, restricted to
// only (a path or directory) when non-empty.
//
// Which files absent from the target are deleted keys on what GoVibe has
// seen, never on the user's git: a file is deleted only when a snapshot
// taken after the target (other than a restore's safety snapshot) holds it
// with its current content, i.e. it was made during the turns being undone,
// by a tool or a shell command. A file no such snapshot holds, or whose
// content changed since, is the user's work: it is kept and reported.
// Paths whose current content is not snapshotted (ignored, skipped) never
// appear in the diff, so they are never touched.
func (s *Store) plan(current plumbing.Hash, target Info, only string) ([]planned, error) {
	diffs, err := s.diffTrees(current, plumbing.NewHash(target.tree))
	if err != nil {
		return nil, err
	}
	created := map[string]plumbing.Hash{}
	for _, d := range diffs {
		if d.to == nil && inside(d.path, only) {
			created[d.path] = d.from.Hash
		}
	}
	seen, err := s.seenAfter(target, created)
	if err != nil {
		return nil, err
	}
	deleted := map[string]bool{}
	for p := range seen {
		deleted[p] = true
	}
	var out []planned
	for _, d := range diffs {
		if !inside(d.path, only) {
			continue
		}
		p := planned{Change: Change{Path: d.path}, entry: d.to}
		switch {
		case d.to == nil && !seen[d.path]:
			p.Kind, p.Mode, p.Reason = Kept, fsMode(d.from.Mode), keptAsUsers
		case d.to == nil:
			p.Kind = Deleted
		case d.from != nil:
			p.Kind, p.Mode = Modified, fsMode(d.to.Mode)
		default:
			p.Kind, p.Mode = Recreated, fsMode(d.to.Mode)
			if reason := s.blockedReason(d.path, deleted); reason != "" {
				p.Kind, p.Reason = Kept, reason
			}
		}
		out = append(out, p)
	}
	return out, nil
}

func inside(p, only string) bool {
	return only == "" || p == only || strings.HasPrefix(p, only+"/")
}

// seenAfter returns the paths of want (path → current blob) that some
// snapshot newer than target, safety snapshots excepted, holds with that
// very blob. Each snapshot's tree is read only along the wanted paths.
//
// A restore counts too: the snapshot it restored after the target (from
// the restore log) is what GoVibe wrote, so undoing a restore removes
// the files it brought back, while a file the user made after it is in
// none of these and is kept.
func (s *Store) seenAfter(target Info, want map[string]plumbing.Hash) (map[string]bool, error) {
	seen := map[string]bool{}
	if len(want) == 0 {
		return seen, nil
	}
	infos, err := s.loadInfos()
	if err != nil {
		return nil, err
	}
	var evidence []plumbing.Hash
	byID := make(map[string]Info, len(infos))
	for _, in := range infos {
		byID[in.ID] = in
		if in.Reason != ReasonBeforeRestore && in.ID != target.ID && in.Time.After(target.Time) {
			evidence = append(evidence, plumbing.NewHash(in.tree))
		}
	}
	for _, r := range s.readRestoreLog() {
		if in, ok := byID[r.id]; ok && r.time.After(target.Time) {
			evidence = append(evidence, plumbing.NewHash(in.tree))
		}
	}
	trie := newPathTrie(want)
	done := map[plumbing.Hash]bool{}
	for _, tree := range evidence {
		if done[tree] {
			continue
		}
		done[tree] = true
		if err := s.matchTree(tree, trie, seen); err != nil {
			return nil, err
		}
		if len(seen) == len(want) {
			break
		}
	}
	return seen, nil
}

// pathTrie holds the wanted paths split at "/", so one tree walk checks
// them all.
type pathTrie struct {
	children map[string]*pathTrie
	path     string
	hash     plumbing.Hash // set on leaves
	leaf     bool
}

func newPathTrie(want map[string]plumbing.Hash) *pathTrie {
	root := &pathTrie{children: map[string]*pathTrie{}}
	for p, h := range want {
		n := root
		for _, c := range strings.Split(p, "/") {
			next := n.children[c]
			if next == nil {
				next = &pathTrie{children: map[string]*pathTrie{}}
				n.children[c] = next
			}
			n = next
		}
		n.leaf, n.path, n.hash = true, p, h
	}
	return root
}

func (s *Store) matchTree(tree plumbing.Hash, n *pathTrie, seen map[string]bool) error {
	entries, err := s.readTree(tree)
	if err != nil {
		return err
	}
	for name, child := range n.children {
		e := entries[name]
		if e == nil {
			continue
		}
		if child.leaf && e.Mode != filemode.Dir && e.Hash == child.hash {
			seen[child.path] = true
		}
		if len(child.children) > 0 && e.Mode == filemode.Dir {
			if err := s.matchTree(e.Hash, child, seen); err != nil {
				return err
			}
		}
	}
	return nil
}
