package filecomplete

import (
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Index answers like Complete, but remembers which roots are too large to
// walk within the budget and keeps a full listing of those, made by a
// walk in the background: the first keystrokes in a large workspace get
// the budgeted walk's partial answer at once, and later ones search every
// file (a search of a 100k-path listing takes about 30 ms). A
// listing older than MaxAge answers once more while a fresh walk replaces
// it, so a file created since shows up a keystroke later. Small roots are
// walked every time, exactly as Complete does. Safe for concurrent use.
type Index struct {
	// MaxAge is how long a listing is used before it is refreshed;
	// default 3 s.
	MaxAge time.Duration

	mu    sync.Mutex
	roots map[string]*listing
}

// listing is one large root's file list.
type listing struct {
	// paths are the files and, once each, the folders above them
	// ("a/b/"), with lower holding the same paths lower-cased, so a
	// search only scores; nil until the first background walk ends.
	paths, lower []string
	at           time.Time
	complete     bool // the walk saw every file (not cut at MaxFiles)
	walking      bool
}

// NewIndex returns an empty index.
func NewIndex() *Index { return &Index{roots: map[string]*listing{}} }

// Complete returns the best matches of query in roots and whether any
// root's answer was cut short.
func (x *Index) Complete(roots []string, query string, o Options) (out []Match, partial bool) {
	o = o.withDefaults()
	q := normQuery(query)
	deadline := time.Now().Add(o.Budget)
	dirs := map[string]bool{}
	for _, root := range roots {
		if l, ok := x.listed(root, o); ok {
			for i, p := range l.paths {
				if s, ok := scoreLower(q, p, l.lower[i]); ok {
					out = append(out, Match{Root: root, Path: p, Score: s})
				}
			}
			partial = partial || !l.complete
			continue
		}
		ms, stopped := walkScored(root, q, o, deadline, dirs)
		out = append(out, ms...)
		if stopped {
			x.large(root, o)
			partial = true
			break
		}
	}
	return best(out, o.Limit), partial
}

// listed is root's listing when it has one, starting a refresh when it
// is older than MaxAge.
func (x *Index) listed(root string, o Options) (listing, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	l := x.roots[root]
	if l == nil || l.paths == nil {
		return listing{}, false
	}
	maxAge := x.MaxAge
	if maxAge <= 0 {
		maxAge = 3 * time.Second
	}
	if time.Since(l.at) > maxAge {
		x.startWalk(root, l, o)
	}
	return *l, true
}

// large records that root cannot be walked within the budget and starts
// its listing.
func (x *Index) large(root string, o Options) {
	x.mu.Lock()
	defer x.mu.Unlock()
	l := x.roots[root]
	if l == nil {
		l = &listing{}
		x.roots[root] = l
	}
	x.startWalk(root, l, o)
}

// startWalk lists root in the background unless a walk already runs; the
// caller holds x.mu.
func (x *Index) startWalk(root string, l *listing, o Options) {
	if l.walking {
		return
	}
	l.walking = true
	go func() {
		var (
			mu    sync.Mutex
			paths []string
			n     atomic.Int64
			cut   atomic.Bool
		)
		tools.WalkFiles(root, func(rel string) bool {
			if n.Add(1) > int64(o.MaxFiles) {
				cut.Store(true)
				return false
			}
			mu.Lock()
			paths = append(paths, rel)
			mu.Unlock()
			return true
		})
		all, lower := withFolders(paths)
		x.mu.Lock()
		l.paths, l.lower, l.at, l.complete, l.walking = all, lower, time.Now(), !cut.Load(), false
		x.mu.Unlock()
	}()
}

// withFolders adds each folder above the files once, and the lower-cased
// copies; never nil.
func withFolders(files []string) (all, lower []string) {
	all = make([]string, 0, len(files)+len(files)/8)
	seen := map[string]bool{}
	for _, f := range files {
		all = append(all, f)
		for d := path.Dir(f); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			all = append(all, d+"/")
		}
	}
	lower = make([]string, len(all))
	for i, p := range all {
		lower[i] = strings.ToLower(p)
	}
	return all, lower
}

// ListingStatus is the state of one root's background listing.
type ListingStatus struct {
	// Ready: a walk has ended, so the listing answers keystrokes.
	Ready bool
	// Complete: that walk saw every file (it was not cut at MaxFiles).
	Complete bool
	// Paths counts the files and folders the listing holds.
	Paths int
	// Walking: a walk is running, the first or a refresh.
	Walking bool
}

// Listing reports root's background listing: the zero ListingStatus for a
// root that has none (small, or not asked about yet). Used to time the
// listing (completebench) without reaching into the index.
func (x *Index) Listing(root string) ListingStatus {
	x.mu.Lock()
	defer x.mu.Unlock()
	l := x.roots[root]
	if l == nil {
		return ListingStatus{}
	}
	return ListingStatus{Ready: l.paths != nil, Complete: l.complete, Paths: len(l.paths), Walking: l.walking}
}
