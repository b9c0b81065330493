package rollback

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

// Host is what the capability needs from the engine.
type Host interface {
	// Settings are the effective settings (snapshots.*).
	Settings() config.Settings
	// CancelAll stops the running turn of every session: restoring under
	// an agent that is writing would interleave both.
	CancelAll()
	// PublishNotice shows the restore notice m (already stored, text in
	// the user's language) in session sid's chat.
	PublishNotice(sid string, m store.Message, text string)
	// PublishTurnSnapshots tells the client which snapshots hold the
	// workspace as it was before turn turnID, so its user message can offer
	// "Roll back to before this turn".
	PublishTurnSnapshots(sid, turnID string, refs []TurnSnapshot)
	// PublishTurnRolledBack tells the client turn turnID was rolled back:
	// its user message stops offering to roll it back.
	PublishTurnRolledBack(sid, turnID string)
	// ForgetReads drops what the model of session sid read: after a
	// restore those reads may be stale.
	ForgetReads(sid string)
	// Tr translates a message for the user.
	Tr(msg string, args ...any) string
}

// Store is the store access the capability needs. *store.Store implements
// it.
type Store interface {
	sessionstate.KV
	GetMessage(ctx context.Context, id string) (store.Message, error)
	AppendMessage(ctx context.Context, sessionID string, nm store.NewMessage) (store.Message, error)
	AppendLLMMessages(ctx context.Context, sessionID, sourceMessageID string, msgs ...llm.Message) (int, error)
}

// Options are fixed for an engine's life.
type Options struct {
	// StateDir holds the shadow stores; Roots are the workspace roots.
	StateDir string
	Roots    []string
	// OnSnapshot, when set, is told of every snapshot created.
	OnSnapshot func(SnapshotInfo)
	Log        *zap.Logger
}

// SnapshotInfo is one snapshot of one workspace root.
type SnapshotInfo struct {
	snapshot.Info
	Root string
}

// Manager owns one shadow store per workspace root, opened lazily. Safe
// for concurrent use; each snapshot.Store serialises its own operations.
type Manager struct {
	host  Host
	store Store
	opts  Options
	log   *zap.Logger

	mu     sync.Mutex
	stores map[string]*snapshot.Store
	// lastPrune rate-limits pruning: it walks every snapshot.
	lastPrune time.Time
	// pruning is the background prune Close waits for.
	pruning sync.WaitGroup
	// turnMu serialises updates of the sessions' turn → snapshot records.
	turnMu sync.Mutex
}

// New returns the manager of opts.Roots' snapshots.
func New(h Host, st Store, o Options) *Manager {
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	return &Manager{host: h, store: st, opts: o, log: o.Log, stores: map[string]*snapshot.Store{}}
}

func (m *Manager) rootStore(root string) (*snapshot.Store, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if st := m.stores[root]; st != nil {
		return st, nil
	}
	// The watcher makes a snapshot cost what changed, not the workspace's
	// size; shell commands' writes are seen like the tools'. Without it
	// (other platforms, NFS, watch limit) each snapshot is a full scan.
	opts := snapshot.Options{Watch: true, Logger: m.log}
	if mb := m.host.Settings().Snapshots.MaxFileSizeMB; mb > 0 {
		opts.MaxFileSize = int64(mb * (1 << 20))
	}
	st, err := snapshot.Open(m.opts.StateDir, root, opts)
	if err != nil {
		return nil, fmt.Errorf("opening the snapshot store for %s: %w", root, err)
	}
	m.stores[root] = st
	return st, nil
}

// Take snapshots every root; it returns the snapshots that were created.
func (m *Manager) Take(ctx context.Context, meta snapshot.Meta) ([]SnapshotInfo, error) {
	all, err := m.TakeAll(ctx, meta)
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
func (m *Manager) TakeAll(ctx context.Context, meta snapshot.Meta) ([]Taken, error) {
	if !m.host.Settings().Snapshots.Enabled {
		return nil, nil
	}
	var out []Taken
	var errs []error
	for _, root := range m.opts.Roots {
		st, err := m.rootStore(root)
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
		if created && m.opts.OnSnapshot != nil {
			m.opts.OnSnapshot(si)
		}
	}
	return out, errors.Join(errs...)
}

// Snapshots lists snapshots of every root (of one session when sid is
// set), newest first, with the stores' total size.
func (m *Manager) Snapshots(sid string) ([]SnapshotInfo, int64, error) {
	var out []SnapshotInfo
	var size int64
	for _, root := range m.opts.Roots {
		st, err := m.rootStore(root)
		if err != nil {
			return nil, 0, err
		}
		infos, err := st.List(sid)
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
func (m *Manager) find(id string) (*snapshot.Store, snapshot.Info, error) {
	for _, root := range m.opts.Roots {
		st, err := m.rootStore(root)
		if err != nil {
			return nil, snapshot.Info{}, err
		}
		if info, err := st.Get(id); err == nil {
			return st, info, nil
		}
	}
	return nil, snapshot.Info{}, fmt.Errorf("no snapshot %q", id)
}

// MaybePrune prunes by age and count at most once an hour, in the
// background, so disk use stays bounded without slowing any turn.
func (m *Manager) MaybePrune() {
	m.mu.Lock()
	due := time.Since(m.lastPrune) > time.Hour
	if due {
		m.lastPrune = time.Now()
	}
	m.mu.Unlock()
	if !due {
		return
	}
	m.pruning.Add(1)
	go func() {
		defer m.pruning.Done()
		m.prune()
	}()
}

// DeleteSession removes a deleted session's snapshots from every root.
func (m *Manager) DeleteSession(sid string) {
	for _, root := range m.opts.Roots {
		st, err := m.rootStore(root)
		if err != nil {
			continue
		}
		if _, err := st.DeleteSession(sid); err != nil {
			m.log.Warn("deleting a session's snapshots", zap.String("root", root), zap.Error(err))
		}
	}
}

func (m *Manager) prune() {
	cs := m.host.Settings()
	age := time.Duration(float64(cs.Snapshots.MaxAgeDays) * float64(24*time.Hour))
	count := cs.Snapshots.MaxCount
	for _, root := range m.opts.Roots {
		st, err := m.rootStore(root)
		if err != nil {
			continue
		}
		if _, err := st.Prune(age, count); err != nil {
			m.log.Warn("pruning snapshots", zap.String("root", root), zap.Error(err))
		}
	}
}

// Close waits for a background prune and closes the stores.
func (m *Manager) Close() {
	m.pruning.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, st := range m.stores {
		_ = st.Close()
	}
}

// Import copies the snapshots that the state directory dir (an old
// storage slot) holds of each root into this manager's stores, so turns
// of sessions merged from there can still be rolled back. A root dir
// never snapshotted is skipped without creating anything there.
func (m *Manager) Import(dir string) (int, error) {
	total := 0
	var errs []error
	for _, root := range m.opts.Roots {
		if !snapshot.Exists(dir, root) {
			continue
		}
		dst, err := m.rootStore(root)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		src, err := snapshot.Open(dir, root, snapshot.Options{Logger: m.log})
		if err != nil {
			errs = append(errs, fmt.Errorf("opening the snapshots of %s in %s: %w", root, dir, err))
			continue
		}
		n, err := dst.Import(src)
		total += n
		errs = append(errs, err, src.Close())
	}
	return total, errors.Join(errs...)
}
