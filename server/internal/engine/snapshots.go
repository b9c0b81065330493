package engine

import (
	"context"
	"errors"
	"fmt"
	"github.com/govibe/govibe/server/internal/config"
	"sort"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/snapshot"
)

// SnapshotInfo is one snapshot of one workspace root.
type SnapshotInfo struct {
	snapshot.Info
	Root string
}

// snapshots owns one shadow store per workspace root, opened lazily. Safe
// for concurrent use; each snapshot.Store serialises its own operations.
type snapshots struct {
	e      *Engine
	mu     sync.Mutex
	stores map[string]*snapshot.Store
	// lastPrune rate-limits pruning: it walks every snapshot.
	lastPrune time.Time
	// turnMu serialises updates of the sessions' turn → snapshot records.
	turnMu sync.Mutex
}

func newSnapshots(e *Engine) *snapshots {
	return &snapshots{e: e, stores: map[string]*snapshot.Store{}}
}

func (s *snapshots) store(root string) (*snapshot.Store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.stores[root]; st != nil {
		return st, nil
	}
	v := s.e.Settings()
	// The watcher makes a snapshot cost what changed, not the workspace's
	// size; shell commands' writes are seen like the tools'. Without it
	// (other platforms, NFS, watch limit) each snapshot is a full scan.
	opts := snapshot.Options{Watch: true, Logger: s.e.log}
	if mb := config.Typed(v).Snapshots.MaxFileSizeMB; mb > 0 {
		opts.MaxFileSize = int64(mb * (1 << 20))
	}
	st, err := snapshot.Open(s.e.opts.StateDir, root, opts)
	if err != nil {
		return nil, fmt.Errorf("opening the snapshot store for %s: %w", root, err)
	}
	s.stores[root] = st
	return st, nil
}

// Take snapshots every root; it returns the snapshots that were created.
func (s *snapshots) Take(ctx context.Context, meta snapshot.Meta) ([]SnapshotInfo, error) {
	all, err := s.TakeAll(ctx, meta)
	var out []SnapshotInfo
	for _, t := range all {
		if t.Created {
			out = append(out, t.SnapshotInfo)
		}
	}
	return out, err
}

// Taken is the snapshot holding one root's current state: new, or the
// latest one when nothing changed since.
type Taken struct {
	SnapshotInfo
	Created bool
}

// TakeAll snapshots every root and returns, per root, the snapshot that
// holds its current state, whether or not one had to be created.
func (s *snapshots) TakeAll(ctx context.Context, meta snapshot.Meta) ([]Taken, error) {
	if !s.e.cfg().Snapshots.Enabled {
		return nil, nil
	}
	var out []Taken
	var errs []error
	for _, root := range s.e.opts.Roots {
		st, err := s.store(root)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		info, created, err := st.Snapshot(ctx, meta)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		si := SnapshotInfo{Info: info, Root: root}
		out = append(out, Taken{SnapshotInfo: si, Created: created})
		if created && s.e.opts.OnSnapshot != nil {
			s.e.opts.OnSnapshot(si)
		}
	}
	return out, errors.Join(errs...)
}

// List returns snapshots of every root, newest first.
func (s *snapshots) List(sessionID string) ([]SnapshotInfo, int64, error) {
	var out []SnapshotInfo
	var size int64
	for _, root := range s.e.opts.Roots {
		st, err := s.store(root)
		if err != nil {
			return nil, 0, err
		}
		infos, err := st.List(sessionID)
		if err != nil {
			return nil, 0, err
		}
		for _, i := range infos {
			out = append(out, SnapshotInfo{Info: i, Root: root})
		}
		if n, err := st.Size(); err == nil {
			size += n
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.After(out[j].Time) })
	return out, size, nil
}

// find locates the store holding snapshot id.
func (s *snapshots) find(id string) (*snapshot.Store, snapshot.Info, error) {
	for _, root := range s.e.opts.Roots {
		st, err := s.store(root)
		if err != nil {
			return nil, snapshot.Info{}, err
		}
		if info, err := st.Get(id); err == nil {
			return st, info, nil
		}
	}
	return nil, snapshot.Info{}, fmt.Errorf("no snapshot %q", id)
}

// maybePrune prunes by age and count at most once an hour, in the
// background, so disk use stays bounded without slowing any turn.
func (s *snapshots) maybePrune() {
	s.mu.Lock()
	due := time.Since(s.lastPrune) > time.Hour
	if due {
		s.lastPrune = time.Now()
	}
	s.mu.Unlock()
	if !due {
		return
	}
	s.e.wg.Add(1)
	go func() {
		defer s.e.wg.Done()
		s.prune()
	}()
}

// deleteSession removes a deleted session's snapshots from every root.
func (s *snapshots) deleteSession(sid string) {
	for _, root := range s.e.opts.Roots {
		st, err := s.store(root)
		if err != nil {
			continue
		}
		if _, err := st.DeleteSession(sid); err != nil {
			s.e.log.Warn("deleting a session's snapshots", zap.String("root", root), zap.Error(err))
		}
	}
}

func (s *snapshots) prune() {
	v := s.e.Settings()
	cs := config.Typed(v)
	age := time.Duration(float64(cs.Snapshots.MaxAgeDays) * float64(24*time.Hour))
	count := cs.Snapshots.MaxCount
	for _, root := range s.e.opts.Roots {
		st, err := s.store(root)
		if err != nil {
			continue
		}
		if _, err := st.Prune(age, count); err != nil {
			s.e.log.Warn("pruning snapshots", zap.String("root", root), zap.Error(err))
		}
	}
}

func (s *snapshots) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.stores {
		_ = st.Close()
	}
}
