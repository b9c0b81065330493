package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/govibe/govibe/server/internal/util/fsatomic"
)

// Diff reports what restoring snapshot id would change in the workspace as
// it is now. It stores the current content's objects (so a following
// Snapshot or Restore reuses them) but creates no snapshot.
func (s *Store) Diff(ctx context.Context, id string) ([]Change, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.unlock()
	target, err := s.resolve(id)
	if err != nil {
		return nil, err
	}
	res, err := s.scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("snapshot: scan %s: %w", s.root, err)
	}
	s.scheduleCacheSave()
	plan, err := s.plan(res.tree, target, "")
	if err != nil {
		return nil, err
	}
	out := make([]Change, len(plan))
	for i, p := range plan {
		out[i] = p.Change
	}
	return out, nil
}

// FileAt returns the content and mode of path in snapshot id; exists is
// false when the snapshot has no such file. For a symlink the content is
// the link target.
func (s *Store) FileAt(id, relPath string) (content []byte, mode fs.FileMode, exists bool, err error) {
	if err := s.lock(); err != nil {
		return nil, 0, false, err
	}
	defer s.unlock()
	p, err := cleanRel(relPath)
	if err != nil {
		return nil, 0, false, err
	}
	target, err := s.resolve(id)
	if err != nil {
		return nil, 0, false, err
	}
	e, err := s.lookupPath(plumbing.NewHash(target.tree), p)
	if errors.Is(err, ErrNotFound) || (err == nil && e.Mode == filemode.Dir) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	data, err := s.readBlob(e.Hash)
	if err != nil {
		return nil, 0, false, err
	}
	return data, fsMode(e.Mode), true, nil
}

// Restore makes the workspace match snapshot id. It first snapshots the
// workspace (reason "before restore"), so the restore itself can be undone
// by restoring RestoreResult.Before. A file absent from the snapshot is
// deleted only when GoVibe saw it being made (see plan); ignored, skipped
// and too-large files are never deleted or overwritten.
func (s *Store) Restore(ctx context.Context, id string) (RestoreResult, error) {
	return s.restore(ctx, id, "")
}

// RestoreFile restores one file, or every file under a directory, from
// snapshot id, with the same safety snapshot and rules as Restore.
func (s *Store) RestoreFile(ctx context.Context, id, relPath string) (RestoreResult, error) {
	p, err := cleanRel(relPath)
	if err != nil {
		return RestoreResult{}, err
	}
	return s.restore(ctx, id, p)
}

func (s *Store) restore(ctx context.Context, id, only string) (RestoreResult, error) {
	if err := s.lock(); err != nil {
		return RestoreResult{}, err
	}
	defer s.unlock()
	target, err := s.resolve(id)
	if err != nil {
		return RestoreResult{}, err
	}
	targetTree := plumbing.NewHash(target.tree)
	if only != "" {
		if _, err := s.lookupPath(targetTree, only); errors.Is(err, ErrNotFound) {
			if _, statErr := os.Lstat(s.abs(only)); statErr != nil {
				return RestoreResult{}, fmt.Errorf("%w: %s is neither in snapshot %s nor in the workspace",
					ErrNotFound, only, target.ID[:12])
			}
		} else if err != nil {
			return RestoreResult{}, err
		}
	}
	before, _, err := s.snapshotLocked(ctx, Meta{
		SessionID: target.SessionID,
		Turn:      target.Turn,
		Message:   target.Message,
		Reason:    ReasonBeforeRestore,
	})
	if err != nil {
		return RestoreResult{}, fmt.Errorf("snapshot: safety snapshot before restore: %w", err)
	}
	result := RestoreResult{Before: before}
	plan, err := s.plan(plumbing.NewHash(before.tree), target, only)
	if err != nil {
		return result, err
	}
	if err := ctx.Err(); err != nil {
		return result, err
	}
	var failed []string
	apply := func(p planned, err error) {
		switch {
		case err == nil:
			result.Changed = append(result.Changed, p.Change)
		case errors.Is(err, errBlocked):
			p.Kind, p.Reason = Kept, err.Error()
			result.Kept = append(result.Kept, p.Change)
		default:
			failed = append(failed, fmt.Sprintf("%s: %v", p.Path, err))
		}
	}
	// Deletions first, deepest first, so a directory replaced by a file (or
	// the reverse) is out of the way before writing.
	for i := len(plan) - 1; i >= 0; i-- {
		if p := plan[i]; p.Kind == Deleted {
			apply(p, s.deletePath(p.Path))
		}
	}
	for _, p := range plan {
		switch p.Kind {
		case Kept:
			result.Kept = append(result.Kept, p.Change)
		case Modified, Recreated:
			apply(p, s.writePath(p.Path, p.entry))
		}
	}
	if len(result.Changed) > 0 {
		s.logRestore(target.ID, time.Now())
	}
	s.maybePackInBackground()
	s.scheduleCacheSave()
	sortChanges(result.Changed)
	sortChanges(result.Kept)
	if len(failed) > 0 {
		return result, fmt.Errorf("snapshot: restore of %s failed for %d paths (undo with %s): %s",
			target.ID[:12], len(failed), before.ID[:12], strings.Join(failed, "; "))
	}
	return result, nil
}

func sortChanges(cs []Change) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].Path < cs[j].Path })
}

// blockedReason says why a file missing from the current snapshot cannot be
// recreated: something not snapshotted already occupies its path or a
// parent path.
func (s *Store) blockedReason(rel string, deleted map[string]bool) string {
	if fi, err := os.Lstat(s.abs(rel)); err == nil && !fi.IsDir() {
		return "an ignored or skipped file is in the way"
	}
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		fi, err := os.Lstat(s.abs(dir))
		if err == nil && !fi.IsDir() && !deleted[dir] {
			return "an ignored or skipped file occupies parent " + dir
		}
	}
	return ""
}

var errBlocked = errors.New("an ignored or skipped file or directory is in the way")

func (s *Store) abs(rel string) string { return filepath.Join(s.root, filepath.FromSlash(rel)) }

func (s *Store) deletePath(rel string) error {
	if err := os.Remove(s.abs(rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// Remove directories the deletion left empty; stops at the first
	// non-empty one (which may hold ignored files).
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		if os.Remove(s.abs(dir)) != nil {
			break
		}
	}
	return nil
}

// ensureDir creates the parent directories of rel, refusing to pass through
// a symlink or a file so a restore can never write outside the workspace.
func (s *Store) ensureDir(rel string) error {
	dir := path.Dir(rel)
	if dir == "." {
		return nil
	}
	cur := ""
	for _, c := range strings.Split(dir, "/") {
		cur = joinRel(cur, c)
		fi, err := os.Lstat(s.abs(cur))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Mkdir(s.abs(cur), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
		case err != nil:
			return err
		case !fi.IsDir():
			return errBlocked
		}
	}
	return nil
}

func (s *Store) writePath(rel string, e *object.TreeEntry) error {
	if err := s.ensureDir(rel); err != nil {
		return err
	}
	abs := s.abs(rel)
	data, err := s.readBlob(e.Hash)
	if err != nil {
		return err
	}
	old, err := os.Lstat(abs)
	if err == nil && old.IsDir() {
		// A directory left over from files we deleted; remove it only if
		// nothing (such as ignored files) remains inside.
		if os.Remove(abs) != nil {
			return errBlocked
		}
		old = nil
	} else if err != nil {
		old = nil
	}
	if e.Mode == filemode.Symlink {
		if old != nil {
			if err := os.Remove(abs); err != nil {
				return err
			}
		}
		return os.Symlink(string(data), abs)
	}
	perm := fs.FileMode(0o644)
	if e.Mode == filemode.Executable {
		perm = 0o755
	}
	if old != nil && old.Mode().IsRegular() {
		// Keep the user's permission bits; only the exec bits are ours.
		perm = old.Mode().Perm() &^ 0o111
		if e.Mode == filemode.Executable {
			perm |= (old.Mode().Perm() & 0o444) >> 2
		}
	}
	return fsatomic.WriteFile(abs, data, perm)
}

func fsMode(m filemode.FileMode) fs.FileMode {
	switch m {
	case filemode.Executable:
		return 0o755
	case filemode.Symlink:
		return fs.ModeSymlink | 0o777
	case filemode.Dir:
		return fs.ModeDir | 0o755
	default:
		return 0o644
	}
}

// cleanRel validates a workspace-relative path given by a caller.
func cleanRel(p string) (string, error) {
	orig := p
	p = strings.TrimSpace(filepath.ToSlash(p))
	if p == "" || path.IsAbs(p) || filepath.IsAbs(orig) || filepath.VolumeName(orig) != "" {
		return "", fmt.Errorf("snapshot: path %q must be relative to the workspace root", orig)
	}
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "", fmt.Errorf("snapshot: path %q is outside the workspace", orig)
	}
	if p == ".git" || strings.HasPrefix(p, ".git/") || strings.Contains(p, "/.git/") || strings.HasSuffix(p, "/.git") {
		return "", fmt.Errorf("snapshot: path %q is inside a .git directory", orig)
	}
	return p, nil
}
