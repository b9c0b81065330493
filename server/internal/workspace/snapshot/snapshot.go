package snapshot

import (
	"context"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/govibe/govibe/server/internal/workspace/filelock"
)

// Snapshot records the current workspace. If nothing changed since the
// latest snapshot (of any session: the workspace is shared), no new one is
// made and the latest is returned with created=false. Unchanged files are
// recognised by a persisted stat cache and not read again.
func (s *Store) Snapshot(ctx context.Context, meta Meta) (Info, bool, error) {
	if err := s.lock(); err != nil {
		return Info{}, false, err
	}
	defer s.unlock()
	info, created, err := s.snapshotLocked(ctx, meta)
	if err == nil && created {
		s.maybePackInBackground()
	}
	s.scheduleCacheSave()
	return info, created, err
}

func (s *Store) snapshotLocked(ctx context.Context, meta Meta) (Info, bool, error) {
	now := time.Now()
	res, err := s.scanOpen(ctx)
	if err != nil {
		return Info{}, false, fmt.Errorf("snapshot: scan %s: %w", s.root, err)
	}
	info, created, err := s.commitLocked(ctx, meta, now, res)
	if err != nil {
		s.finishScan(res, false)
		return Info{}, false, err
	}
	return info, created, nil
}

// commitLocked makes the snapshot of a scan still open: its commit goes
// into the scan's pack, the pack is installed, then the ref names it.
func (s *Store) commitLocked(ctx context.Context, meta Meta, now time.Time, res *scanResult) (Info, bool, error) {
	var err error
	if res.tree.IsZero() {
		if res.tree, err = s.putTree(nil); err != nil {
			return Info{}, false, err
		}
	}
	infos, err := s.loadInfos()
	if err != nil {
		return Info{}, false, err
	}
	prevTree := plumbing.ZeroHash
	if len(infos) > 0 {
		if infos[0].tree == res.tree.String() {
			return infos[0], false, s.finishScan(res, true)
		}
		prevTree = plumbing.NewHash(infos[0].tree)
	}
	changed := res.files
	if !prevTree.IsZero() {
		diffs, err := s.diffTrees(prevTree, res.tree)
		if err != nil {
			return Info{}, false, err
		}
		changed = len(diffs)
	}
	info := Info{
		Time:         now,
		SessionID:    oneLine(meta.SessionID, 200),
		Turn:         meta.Turn,
		TurnID:       oneLine(meta.TurnID, 200),
		Message:      oneLine(meta.Message, 200),
		Reason:       oneLine(meta.Reason, 200),
		ChangedFiles: changed,
		SkippedCount: len(res.skipped),
		Skipped:      res.skipped[:min(len(res.skipped), maxSkippedListed)],
	}
	if err := ctx.Err(); err != nil {
		return Info{}, false, err
	}
	info, err = s.writeCommit(info, res.tree, func() error { return s.finishScan(res, true) })
	if err != nil {
		return Info{}, false, err
	}
	return info, true, nil
}

// cacheSaveInterval spaces out stat-cache saves: saving encodes every
// entry and holds the mutex, which would cost more than an incremental
// snapshot. An unsaved cache only costs re-reading the files changed
// meanwhile after a crash; Close saves it.
const cacheSaveInterval = 30 * time.Second

// cacheSaveIdle: a scheduled save waits until the store has not been used
// for this long (at most cacheSaveInterval more), so it runs while the
// agent is busy elsewhere rather than in front of the next snapshot or
// restore, which would wait for the mutex (tens of milliseconds at 100k
// files on a busy machine).
const cacheSaveIdle = time.Second

// scheduleCacheSave writes the stat cache after the caller releases the
// mutex, so the snapshot the agent waits for does not include encoding and
// writing it. Close saves whatever is still unsaved. Called with the mutex
// held.
func (s *Store) scheduleCacheSave() {
	if !s.cache.dirty || s.savingCache || time.Since(s.cacheSavedAt) < cacheSaveInterval {
		return
	}
	s.savingCache = true
	s.cacheSavedAt = time.Now()
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		deadline := time.Now().Add(cacheSaveInterval)
		for {
			s.mu.Lock()
			idle := time.Since(s.lastUsed)
			s.mu.Unlock()
			if idle >= cacheSaveIdle || time.Now().After(deadline) {
				break
			}
			select {
			case <-time.After(cacheSaveIdle - idle):
			case <-s.quit: // Close saves it
				return
			}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.savingCache = false
		if s.closed {
			return
		}
		if err := s.lockFileLocked(); err != nil {
			s.bgErr = err
			return
		}
		defer filelock.Unlock(s.lockf)
		if err := s.saveCache(); err != nil && s.bgErr == nil {
			s.bgErr = err
		}
	}()
}

func (s *Store) saveCache() error {
	if err := s.cache.save(s.cachePath()); err != nil {
		return fmt.Errorf("snapshot: save stat cache: %w", err)
	}
	return nil
}

// List returns the snapshots of one session ("" for all), newest first.
func (s *Store) List(sessionID string) ([]Info, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.unlock()
	infos, err := s.loadInfos()
	if err != nil || sessionID == "" {
		return infos, err
	}
	out := infos[:0]
	for _, in := range infos {
		if in.SessionID == sessionID {
			out = append(out, in)
		}
	}
	return out, nil
}

// Get returns one snapshot by ID or unique ID prefix.
func (s *Store) Get(id string) (Info, error) {
	if err := s.lock(); err != nil {
		return Info{}, err
	}
	defer s.unlock()
	return s.resolve(id)
}
