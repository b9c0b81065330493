package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/workspace/filelock"
)

// ErrNotFound is returned for an unknown snapshot ID or a path that is not
// in a snapshot.
var ErrNotFound = errors.New("snapshot: not found")

// ErrClosed is returned by every method after Close.
var ErrClosed = errors.New("snapshot: store is closed")

// Store is the snapshot store of one workspace root.
//
// Concurrency: a Store is safe for concurrent use. Every method takes one
// mutex, so snapshots, restores, diffs and pruning of a Store run one at a
// time; background packing and stat-cache saving hold the same mutex.
// Several processes (say two editor windows on one folder) may open the
// same store: every operation also holds an exclusive lock on
// <shadow>/govibe.lock and first picks up packs, pruning and the stat cache
// another process changed (see refreshLocked).
type Store struct {
	mu     sync.Mutex
	closed bool
	quit   chan struct{}  // closed by Close: background work stops waiting
	bg     sync.WaitGroup // background packing
	// lastUsed is when the mutex was last released by an operation.
	lastUsed time.Time
	// packing is true while a background pack is scheduled; bgErr keeps
	// its failure for Pack or Close to report.
	packing     bool
	savingCache bool
	// cacheSavedAt is when the last background cache save was scheduled.
	cacheSavedAt time.Time
	bgErr        error

	root     string // absolute, cleaned workspace root
	dir      string // shadow repository
	stateDir string
	opts     Options
	skipDirs map[string]bool

	lockf     *os.File // cross-process lock, held during every operation
	packStamp string   // pack directory listing last seen
	gcStamp   string   // content of the GC marker last seen

	storage *filesystem.Storage // go-git view, used for refs and some reads: see git()
	// storageStale is set when packs changed since storage was opened.
	storageStale bool
	// trees caches recently written or read trees (objread.go).
	trees map[plumbing.Hash][]object.TreeEntry
	objs  *objectStore // writes and existence checks
	cache *statCache
	infos map[string]Info // by ID; refreshed from refs by loadInfos
	// lastHashed counts the files the latest scan had to read, which shows
	// (in tests and benchmarks) how well the stat cache works.
	lastHashed int
	// treeMemo maps directories to their last tree (see scan); cleared
	// when garbage collection may have deleted those trees.
	treeMemo map[string]treeMemo

	log   *zap.Logger
	watch changeSource // nil without Options.Watch or when unavailable
	// ignoreStamp is rootIgnoreStamp at the last scan.
	ignoreStamp string
	// lastIncremental tells whether the latest scan used the watcher.
	lastIncremental bool
}

// Open opens (creating if needed) the snapshot store for the workspace root.
func Open(stateDir, root string, opts Options) (*Store, error) {
	if stateDir == "" || root == "" {
		return nil, errors.New("snapshot: stateDir and root are required")
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("snapshot: resolve root: %w", err)
	}
	fi, err := os.Stat(absRoot)
	if err != nil {
		return nil, fmt.Errorf("snapshot: workspace root: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("snapshot: workspace root %s is not a directory", absRoot)
	}
	absState, err := filepath.Abs(stateDir)
	if err != nil {
		return nil, fmt.Errorf("snapshot: resolve state dir: %w", err)
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.LooseObjectLimit <= 0 {
		opts.LooseObjectLimit = DefaultLooseObjectLimit
	}
	if opts.PruneGrace == 0 {
		opts.PruneGrace = DefaultPruneGrace
	}
	skip := opts.SkipDirs
	if skip == nil {
		skip = DefaultSkipDirs
	}
	s := &Store{
		quit:     make(chan struct{}),
		root:     absRoot,
		stateDir: absState,
		dir:      filepath.Join(absState, "snapshots", rootKey(absRoot)),
		opts:     opts,
		skipDirs: make(map[string]bool, len(skip)),
		infos:    map[string]Info{},
	}
	for _, d := range skip {
		s.skipDirs[d] = true
	}
	s.log = opts.Logger
	if s.log == nil {
		s.log = zap.NewNop()
	}
	if err := s.initRepo(); err != nil {
		return nil, err
	}
	if opts.Watch {
		w, why := s.startWatcher()
		if w == nil {
			s.log.Info("snapshot: no file watcher, every snapshot scans the whole workspace",
				zap.String("root", s.root), zap.String("why", why))
		} else {
			s.watch = w
		}
	}
	return s, nil
}

// rootKey names a workspace's shadow directory; hashing keeps it short and
// free of path separators while staying stable across runs.
func rootKey(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:])[:24]
}

func (s *Store) initRepo() error {
	if _, err := os.Stat(filepath.Join(s.dir, "HEAD")); os.IsNotExist(err) {
		if err := os.MkdirAll(filepath.Dir(s.dir), 0o700); err != nil {
			return fmt.Errorf("snapshot: create state dir: %w", err)
		}
		// Initialise in a temporary directory and rename, so a crash never
		// leaves a half-initialised repository behind.
		tmp, err := os.MkdirTemp(filepath.Dir(s.dir), ".init-")
		if err != nil {
			return fmt.Errorf("snapshot: create shadow repo: %w", err)
		}
		if _, err := git.PlainInit(tmp, true); err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("snapshot: init shadow repo: %w", err)
		}
		if err := os.WriteFile(filepath.Join(tmp, "description"),
			[]byte("GoVibe workspace snapshots of "+s.root+"\n"), 0o644); err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("snapshot: init shadow repo: %w", err)
		}
		if err := os.Rename(tmp, s.dir); err != nil {
			os.RemoveAll(tmp)
			// Another process may have won the race; accept its repository.
			if _, statErr := os.Stat(filepath.Join(s.dir, "HEAD")); statErr != nil {
				return fmt.Errorf("snapshot: init shadow repo: %w", err)
			}
		}
	} else if err != nil {
		return fmt.Errorf("snapshot: open shadow repo: %w", err)
	}
	lf, err := os.OpenFile(filepath.Join(s.dir, "govibe.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("snapshot: open lock file: %w", err)
	}
	s.lockf = lf
	if err := filelock.Lock(lf); err != nil {
		lf.Close()
		return fmt.Errorf("snapshot: lock store: %w", err)
	}
	defer filelock.Unlock(lf)
	objs, err := openObjectStore(filepath.Join(s.dir, "objects"))
	if err != nil {
		lf.Close()
		return err
	}
	s.objs = objs
	s.openStorage()
	s.cache = loadStatCache(s.cachePath())
	s.packStamp = s.readPackStamp()
	s.gcStamp = s.readGCStamp()
	return nil
}

func (s *Store) gcMarkerPath() string { return filepath.Join(s.dir, "govibe-gc") }

func (s *Store) readGCStamp() string {
	b, _ := os.ReadFile(s.gcMarkerPath())
	return string(b)
}

func (s *Store) readPackStamp() string {
	entries, _ := os.ReadDir(filepath.Join(s.dir, "objects", "pack"))
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e.Name())
		b.WriteByte(0)
	}
	return b.String()
}

// refreshLocked picks up what another process changed since this one last
// held the lock: new or merged packs, and garbage collection, after which
// this process's stat cache and tree memo may name deleted objects.
func (s *Store) refreshLocked() error {
	if gc := s.readGCStamp(); gc != s.gcStamp {
		s.gcStamp = gc
		s.cache = loadStatCache(s.cachePath())
		s.treeMemo = nil
		s.trees = nil
		s.packStamp = "" // force the pack reload below
	}
	if ps := s.readPackStamp(); ps != s.packStamp {
		s.packStamp = ps
		if err := s.objs.reloadPacks(); err != nil {
			return err
		}
		s.storageStale = true
	}
	return nil
}

func (s *Store) openStorage() {
	if s.storage != nil {
		s.storage.Close()
	}
	s.storage = filesystem.NewStorageWithOptions(osfs.New(s.dir),
		cache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: false})
	s.storageStale = false
}

func (s *Store) cachePath() string { return filepath.Join(s.dir, "govibe-statcache") }

// Dir returns the shadow repository's directory.
func (s *Store) Dir() string { return s.dir }

// Root returns the absolute workspace root.
func (s *Store) Root() string { return s.root }

// Close waits for background packing and releases open files. The store
// must not be used afterwards.
func (s *Store) Close() error {
	if s.watch != nil {
		s.watch.close()
	}
	s.mu.Lock()
	select {
	case <-s.quit:
	default:
		close(s.quit)
	}
	s.mu.Unlock()
	s.bg.Wait()
	if err := s.lock(); err != nil {
		if errors.Is(err, ErrClosed) {
			return nil
		}
		return err
	}
	var err error
	if s.cache.dirty {
		err = s.saveCache()
	}
	s.closed = true
	filelock.Unlock(s.lockf)
	s.mu.Unlock()
	if cerr := s.storage.Close(); err == nil {
		err = cerr
	}
	if cerr := s.lockf.Close(); err == nil {
		err = cerr
	}
	if s.bgErr != nil {
		err = s.bgErr
	}
	return err
}

// lock takes the store mutex and the cross-process lock, and refreshes
// what other processes changed. It fails once the store is closed.
func (s *Store) lock() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	if err := s.lockFileLocked(); err != nil {
		s.mu.Unlock()
		return err
	}
	return nil
}

// lockFileLocked is lock's second half, for callers already holding mu.
func (s *Store) lockFileLocked() error {
	if err := filelock.Lock(s.lockf); err != nil {
		return fmt.Errorf("snapshot: lock store: %w", err)
	}
	if err := s.refreshLocked(); err != nil {
		filelock.Unlock(s.lockf)
		return err
	}
	return nil
}

func (s *Store) unlock() {
	filelock.Unlock(s.lockf)
	s.lastUsed = time.Now()
	s.mu.Unlock()
}

// WaitWatcher blocks until the file watcher has added its watches (or
// given up), and reports whether a watcher was started. Snapshots work before that, as full scans.
func (s *Store) WaitWatcher(ctx context.Context) bool {
	if s.watch == nil {
		return false
	}
	select {
	case <-s.watch.readyC():
		return true
	case <-ctx.Done():
		return false
	}
}
