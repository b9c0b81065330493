package tools

import (
	"context"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/govibe/govibe/server/internal/util/skipdirs"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// walkOptions tunes the workspace walkers. Both walkers honour .gitignore
// files from the walk's base down (nested files add to their parents', as
// git does) and never enter .git.
type walkOptions struct {
	hidden bool // include dot-files and dot-directories
	// skipDir, when set, prunes directories (rel is slash-separated,
	// relative to the walk's base).
	skipDir func(rel string) bool
	// forceFile, when set, keeps a file that .gitignore would skip; it is
	// ripgrep's rule that an explicit --glob outranks ignore files.
	forceFile func(path string) bool
	// report, when set, picks by name the entries walkFrom passes to its
	// fn (directories are walked into either way); the others cost no
	// path building.
	report func(name string) bool
	// ctx, when set, stops walkFrom at the next directory once done (fn
	// may see few entries, so it cannot be the one to check).
	ctx context.Context
}

// ignoreSet is an immutable stack of gitignore patterns, shared by the
// goroutines walking below the directory that produced it.
type ignoreSet struct {
	patterns []gitignore.Pattern
	matcher  gitignore.Matcher
}

// maxGitignore bounds one .gitignore file read by the walkers.
const maxGitignore = 4 << 20

func (s *ignoreSet) with(dir string, parts []string) *ignoreSet {
	// A .gitignore that is a FIFO or a device is refused, not waited on.
	b, err := safefile.ReadFile(filepath.Join(dir, ".gitignore"), maxGitignore)
	if err != nil {
		return s
	}
	ps := append([]gitignore.Pattern(nil), s.patterns...)
	domain := append([]string(nil), parts...)
	for line := range strings.SplitSeq(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return &ignoreSet{patterns: ps, matcher: gitignore.NewMatcher(ps)}
}

func (s *ignoreSet) ignored(parts []string, isDir bool) bool {
	return s.matcher != nil && s.matcher.Match(parts, isDir)
}

// ignoreFor loads the .gitignore files of base and of every directory from
// base down to start (exclusive of start's own, which the walk reads).
func ignoreFor(base, start string) (*ignoreSet, []string) {
	set := &ignoreSet{}
	rel, err := filepath.Rel(base, start)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return set, nil
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	dir := base
	for i := range parts {
		set = set.with(dir, parts[:i])
		dir = filepath.Join(dir, parts[i])
	}
	return set, parts
}

func skipName(name string, opt walkOptions) bool {
	return skipdirs.IsVCS(name) || (!opt.hidden && strings.HasPrefix(name, "."))
}

// walkTree visits every non-ignored entry below root in lexical order,
// depth first, until fn returns false. Symlinks are reported, not followed.
// rel is the entry's slash-separated path relative to root.
func walkTree(root string, opt walkOptions, fn func(path, rel string, d fs.DirEntry) bool) {
	walkFrom(root, root, opt, fn, true)
}

// walkFrom walks start (below base, whose .gitignore files apply); without
// recursive only start's own entries are visited. fn gets each entry's
// path and its slash-separated path relative to base (relative to start
// when start is not below base).
//
// Per entry it does no more than it must: glob over 10,000 files spent
// most of its CPU in filepath.Join, filepath.Rel (both Clean the path) and
// a fresh parts slice per entry, and a failed open of .gitignore per
// directory (issue 17).
func walkFrom(base, start string, opt walkOptions, fn func(path, rel string, d fs.DirEntry) bool, recursive bool) {
	set, parts := ignoreFor(base, start)
	var rec func(dir, relDir string, parts []string, set *ignoreSet) bool
	rec = func(dir, relDir string, parts []string, set *ignoreSet) bool {
		if opt.ctx != nil && opt.ctx.Err() != nil {
			return false
		}
		entries, err := readDir(dir, dir != start)
		if err != nil {
			return true
		}
		if hasGitignore(entries) {
			set = set.with(dir, parts)
		}
		for _, e := range entries {
			name := e.Name()
			if skipName(name, opt) || safefile.Special(e.Type()) {
				// A FIFO, device or socket is not listed: nothing a
				// tool does with a listed file may be done to it.
				continue
			}
			isDir := e.IsDir()
			var p []string
			if isDir || set.matcher != nil {
				p = append(parts[:len(parts):len(parts)], name)
				if set.ignored(p, isDir) {
					continue
				}
			}
			reported := opt.report == nil || opt.report(name)
			if !isDir && !reported {
				continue
			}
			rel := name
			if relDir != "" {
				rel = relDir + "/" + name
			}
			if isDir && opt.skipDir != nil && opt.skipDir(rel) {
				continue
			}
			path := joinName(dir, name)
			if reported && !fn(path, rel, e) {
				return false
			}
			if recursive && isDir && !rec(path, rel, p, set) {
				return false
			}
		}
		return true
	}
	rec(start, strings.Join(parts, "/"), parts, set)
}

// readDir lists dir sorted by name, as os.ReadDir does, through safefile:
// a folder swapped for a FIFO since its parent was listed is refused, not
// waited on. entry says dir came from a listing (not a link): a link
// swapped in is not followed.
func readDir(dir string, entry bool) ([]fs.DirEntry, error) {
	f, _, err := safefile.Open(dir, safefile.Options{Dir: true, NoFollow: entry})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// hasGitignore reports whether a directory listing holds a .gitignore,
// so that directories without one cost no failed open.
func hasGitignore(entries []fs.DirEntry) bool {
	for _, e := range entries {
		if e.Name() == ".gitignore" {
			return true
		}
	}
	return false
}

// joinName is filepath.Join(dir, name) for a clean dir and a name from a
// directory listing, without Join's Clean.
func joinName(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// walkFiles calls fn for every non-ignored regular file below start from
// several goroutines at once (fn must be safe for concurrent use); order
// is unspecified. base is the workspace root whose .gitignore files apply.
// fn returning false stops the walk early.
func walkFiles(base, start string, opt walkOptions, fn func(path string, rel string) bool) {
	set, parts := ignoreFor(base, start)
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		queue   = []dirJob{{start, parts, set, false}}
		pending = 1 // directories queued or being listed
		stop    atomic.Bool
		wg      sync.WaitGroup
	)
	worker := func() {
		defer wg.Done()
		for {
			mu.Lock()
			for len(queue) == 0 && pending > 0 {
				cond.Wait()
			}
			if pending == 0 {
				mu.Unlock()
				return
			}
			j := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			mu.Unlock()

			var sub []dirJob
			if !stop.Load() {
				sub = walkDir(j.dir, j.entry, j.parts, j.set, opt, &stop, fn)
			}
			mu.Lock()
			queue = append(queue, sub...)
			pending += len(sub) - 1
			if pending == 0 || len(sub) > 0 {
				cond.Broadcast()
			}
			mu.Unlock()
		}
	}
	n := max(2, runtime.GOMAXPROCS(0))
	wg.Add(n)
	for range n {
		go worker()
	}
	wg.Wait()
}

// dirJob is a directory waiting to be listed with the ignore rules that
// apply to it.
type dirJob struct {
	dir   string
	parts []string
	set   *ignoreSet
	entry bool // found in a listing (so not a link), not the walk's start
}

// walkDir lists one directory: files go to fn, subdirectories are returned.
func walkDir(dir string, entry bool, parts []string, set *ignoreSet, opt walkOptions, stop *atomic.Bool, fn func(string, string) bool) []dirJob {
	f, _, err := safefile.Open(dir, safefile.Options{Dir: true, NoFollow: entry})
	if err != nil {
		return nil
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil && len(entries) == 0 {
		return nil
	}
	for _, e := range entries {
		if e.Name() == ".gitignore" {
			set = set.with(dir, parts)
			break
		}
	}
	var subs []dirJob
	for _, e := range entries {
		name := e.Name()
		if skipName(name, opt) {
			continue
		}
		t := e.Type()
		// Symbolic links and special files (FIFOs, devices, sockets) are
		// skipped by the listing's own type bits, never opened.
		if t&fs.ModeSymlink != 0 || (!t.IsDir() && !t.IsRegular()) {
			continue
		}
		p := append(parts[:len(parts):len(parts)], name)
		if set.ignored(p, t.IsDir()) && (t.IsDir() || opt.forceFile == nil || !opt.forceFile(filepath.Join(dir, name))) {
			continue
		}
		if t.IsDir() {
			if opt.skipDir != nil && opt.skipDir(strings.Join(p, "/")) {
				continue
			}
			subs = append(subs, dirJob{filepath.Join(dir, name), p, set, true})
			continue
		}
		if stop.Load() {
			return nil
		}
		if !fn(filepath.Join(dir, name), strings.Join(p, "/")) {
			stop.Store(true)
			return nil
		}
	}
	return subs
}

// WalkFiles calls fn with the slash-separated path (relative to root) of
// every file .gitignore keeps, hidden ones skipped, from several
// goroutines at once; fn returning false stops the walk. The @-mention
// autocomplete uses it, so it sees exactly what the tools see.
func WalkFiles(root string, fn func(rel string) bool) {
	walkFiles(root, root, walkOptions{}, func(_ string, rel string) bool { return fn(filepath.ToSlash(rel)) })
}
