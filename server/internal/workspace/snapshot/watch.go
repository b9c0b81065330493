package snapshot

import (
	"path"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// Change tracking. A full scan stats every file, so its cost grows with
// the workspace. With Options.Watch, a file watcher records which paths
// changed since the last scan, and the next scan opens only the
// directories on the way to them, reusing the trees of the others from
// treeMemo. The stat cache and the memo stay the source of truth: the
// watcher only says where to look. Whenever it cannot vouch for having
// seen everything (not started yet, overflowed, unavailable, did not
// answer the barrier, or a scan failed) the next scan is a full one, and
// the log says why.

// changeSet is what the watcher saw since the last scan began.
type changeSet struct {
	// dirs holds directories (workspace-relative, "" for the root) whose
	// entries changed: they are listed and their files stat-ed again.
	dirs map[string]bool
	// deep holds paths that are re-read whole: a file's content, or a
	// directory's entire subtree (created, moved in, or under a changed
	// .gitignore), whose memoised trees cannot be trusted.
	deep map[string]bool
}

func newChangeSet() changeSet {
	return changeSet{dirs: map[string]bool{}, deep: map[string]bool{}}
}

// add records an event on rel (a file or directory, "" never).
func (c changeSet) add(rel string) {
	parent := path.Dir(rel)
	if parent == "." {
		parent = ""
	}
	c.dirs[parent] = true
	c.deep[rel] = true
	if path.Base(rel) == ".gitignore" {
		c.deep[parent] = true // the rules of the whole subtree changed
	}
}

// opened returns every directory an incremental scan must list: the
// changed ones and their ancestors.
func (c changeSet) opened() map[string]bool {
	out := map[string]bool{"": true}
	mark := func(dir string) {
		for dir != "" && dir != "." && !out[dir] {
			out[dir] = true
			dir = path.Dir(dir)
		}
	}
	for d := range c.dirs {
		mark(d)
	}
	for p := range c.deep {
		mark(path.Dir(p))
	}
	return out
}

// barrierTimeout bounds the wait for the watcher to deliver every event
// queued before a scan; past it the scan is a full one.
const barrierTimeout = 2 * time.Second

// changeSource is the watcher as the scan sees it.
type changeSource interface {
	// take waits until every event that happened before the call has been
	// recorded, then hands over the changes and starts a new set. ok is
	// false when the changes cannot be trusted; why says so, for the log.
	take() (cs changeSet, ok bool, why string)
	// invalidate makes the next take fail (a scan using its changes failed).
	invalidate()
	// readyC is closed once the watcher covers the workspace (or gave up);
	// tests and benchmarks wait for it.
	readyC() <-chan struct{}
	close()
}

// rootIgnoreStamp is the content of the exclude files outside the tree
// (global excludes, info/exclude), which the watcher does not see: when it
// changes, the next scan is a full one.
func rootIgnoreStamp(root string) string {
	var b []byte
	for _, p := range []string{globalExcludesPath(), infoExcludePath(root)} {
		if p != "" {
			data, _ := safefile.ReadFile(p, maxIgnoreFile)
			b = append(append(b, data...), 0)
		}
	}
	return string(b)
}
