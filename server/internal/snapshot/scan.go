package snapshot

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// racyWindow: a file whose mtime or ctime is this close to the moment it was
// read may be rewritten again without its timestamps changing (coarse
// timestamp filesystems), so its hash is not cached ("racy git").
const racyWindow = 2 * time.Second

// maxSkippedListed bounds Info.Skipped so metadata stays small.
const maxSkippedListed = 100

type scanFile struct {
	name      string
	rel       string // slash-separated, relative to root
	mode      filemode.FileMode
	key       statKey
	hash      plumbing.Hash
	cacheable bool
	dropped   bool // vanished or skipped while hashing
}

type scanDir struct {
	name  string
	files []*scanFile
	dirs  []*scanDir
}

type scanResult struct {
	tree    plumbing.Hash // ZeroHash when the workspace has no files
	files   int
	hashed  int // files read this scan (stat cache misses)
	skipped []Skipped
	cache   map[string]cacheEntry
}

type scanner struct {
	ctx     context.Context
	s       *Store
	start   time.Time
	pending []*scanFile

	mu      sync.Mutex
	skipped []Skipped
}

// scan walks the workspace, stores every new blob and tree, and returns the
// root tree. Callers hold the Store mutex.
func (s *Store) scan(ctx context.Context) (*scanResult, error) {
	sc := &scanner{ctx: ctx, s: s, start: time.Now()}
	root := &scanDir{}
	if err := sc.walk(root, s.root, nil, rootIgnoreRules(s.root)); err != nil {
		return nil, err
	}
	if err := sc.hashPending(); err != nil {
		return nil, err
	}
	res := &scanResult{cache: map[string]cacheEntry{}, hashed: len(sc.pending)}
	tree, _, err := sc.buildTree(root, res)
	if err != nil {
		return nil, err
	}
	res.tree = tree
	s.lastHashed = res.hashed
	sort.Slice(sc.skipped, func(i, j int) bool { return sc.skipped[i].Path < sc.skipped[j].Path })
	res.skipped = sc.skipped
	return res, nil
}

func (sc *scanner) skip(rel, reason string) {
	sc.mu.Lock()
	sc.skipped = append(sc.skipped, Skipped{Path: rel, Reason: reason})
	sc.mu.Unlock()
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func (sc *scanner) walk(d *scanDir, abs string, comps []string, rules *ignoreRules) error {
	if err := sc.ctx.Err(); err != nil {
		return err
	}
	relDir := ""
	if len(comps) > 0 {
		relDir = joinComps(comps)
	}
	f, err := os.Open(abs)
	if err != nil {
		if len(comps) == 0 {
			return err
		}
		if !errors.Is(err, fs.ErrNotExist) {
			sc.skip(relDir+"/", SkipUnreadable)
		}
		return nil
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		if len(comps) == 0 {
			return err
		}
		sc.skip(relDir+"/", SkipUnreadable)
		return nil
	}
	hasDotGit := false
	for _, e := range entries {
		switch e.Name() {
		case ".gitignore":
			if e.Type().IsRegular() {
				rules = rules.with(readPatterns(filepath.Join(abs, ".gitignore"), comps))
			}
		case ".git":
			hasDotGit = true
		}
	}
	if hasDotGit && len(comps) > 0 {
		// A nested repository: honour its own info/exclude inside it.
		if p := infoExcludePath(abs); p != "" {
			rules = rules.with(readPatterns(p, comps))
		}
	}
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue // never snapshot (or touch) any repository's metadata
		}
		t := e.Type()
		isDir := t.IsDir()
		path := append(comps[:len(comps):len(comps)], name)
		if rules.match(path, isDir) {
			continue
		}
		rel := joinRel(relDir, name)
		childAbs := filepath.Join(abs, name)
		if isDir {
			if sc.s.skipDirs[name] {
				sc.skip(rel+"/", SkipListed)
				continue
			}
			if childAbs == sc.s.stateDir {
				continue
			}
			child := &scanDir{name: name}
			d.dirs = append(d.dirs, child)
			if err := sc.walk(child, childAbs, path, rules); err != nil {
				return err
			}
			continue
		}
		fi, err := e.Info()
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				sc.skip(rel, SkipUnreadable)
			}
			continue
		}
		sf := &scanFile{name: name, rel: rel}
		switch m := fi.Mode(); {
		case m.IsRegular():
			if fi.Size() > sc.s.opts.MaxFileSize {
				sc.skip(rel, SkipTooLarge)
				continue
			}
			sf.mode = filemode.Regular
			if m&0o111 != 0 {
				sf.mode = filemode.Executable
			}
		case m&fs.ModeSymlink != 0:
			sf.mode = filemode.Symlink
		default:
			sc.skip(rel, SkipSpecial)
			continue
		}
		sf.key = keyOf(fi, sf.mode)
		if h, ok := sc.s.cache.lookup(rel, sf.key); ok {
			sf.hash, sf.cacheable = h, true
		} else {
			sc.pending = append(sc.pending, sf)
		}
		d.files = append(d.files, sf)
	}
	return nil
}

func joinComps(comps []string) string {
	n := len(comps) - 1
	for _, c := range comps {
		n += len(c)
	}
	b := make([]byte, 0, n)
	for i, c := range comps {
		if i > 0 {
			b = append(b, '/')
		}
		b = append(b, c...)
	}
	return string(b)
}

func keyOf(fi os.FileInfo, mode filemode.FileMode) statKey {
	ctime, ino := platformStat(fi)
	return statKey{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ctime: ctime, ino: ino, mode: mode}
}

func (sc *scanner) hashPending() error {
	if len(sc.pending) == 0 {
		return nil
	}
	workers := min(runtime.GOMAXPROCS(0), len(sc.pending))
	ch := make(chan *scanFile)
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	ctx, cancel := context.WithCancel(sc.ctx)
	defer cancel()
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range ch {
				if err := sc.hashFile(f); err != nil {
					errOnce.Do(func() { firstErr = err; cancel() })
				}
			}
		}()
	}
feed:
	for _, f := range sc.pending {
		select {
		case ch <- f:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return sc.ctx.Err()
}

// hashFile reads one file and stores its blob. Only store failures are
// returned; a file that vanishes or cannot be read is dropped and reported.
func (sc *scanner) hashFile(f *scanFile) error {
	abs := filepath.Join(sc.s.root, filepath.FromSlash(f.rel))
	readStart := time.Now()
	var content []byte
	stable := false
	if f.mode == filemode.Symlink {
		target, err := os.Readlink(abs)
		if err != nil {
			sc.drop(f, err)
			return nil
		}
		content = []byte(target)
		fi, err := os.Lstat(abs)
		stable = err == nil && fi.Mode()&fs.ModeSymlink != 0 && keyOf(fi, f.mode) == f.key
	} else {
		var err error
		content, stable, err = sc.readStable(f, abs)
		if err != nil {
			sc.drop(f, err)
			return nil
		}
		if f.dropped {
			return nil
		}
	}
	h, err := sc.s.objs.put(plumbing.BlobObject, content)
	if err != nil {
		return err
	}
	f.hash = h
	// Only content writes can hide behind an unchanged stat (two writes in
	// one timestamp tick); chmod and touch change ctime or mode, both keyed.
	f.cacheable = stable && f.key.mtime < readStart.Add(-racyWindow).UnixNano()
	return nil
}

// readStable reads a regular file, retrying while it changes underneath so
// the content matches the stat recorded with it. If the file never settles
// the last read is used but not cached, so the next snapshot reads it again.
func (sc *scanner) readStable(f *scanFile, abs string) ([]byte, bool, error) {
	fh, err := os.Open(abs)
	if err != nil {
		return nil, false, err
	}
	defer fh.Close()
	var content []byte
	for attempt := 0; attempt < 3; attempt++ {
		before, err := fh.Stat()
		if err != nil {
			return nil, false, err
		}
		if !before.Mode().IsRegular() {
			return nil, false, fs.ErrNotExist
		}
		if _, err := fh.Seek(0, io.SeekStart); err != nil {
			return nil, false, err
		}
		limit := sc.s.opts.MaxFileSize
		content, err = io.ReadAll(io.LimitReader(fh, limit+1))
		if err != nil {
			return nil, false, err
		}
		if int64(len(content)) > limit {
			f.dropped = true
			sc.skip(f.rel, SkipTooLarge)
			return nil, false, nil
		}
		after, err := fh.Stat()
		if err != nil {
			return nil, false, err
		}
		mode := filemode.Regular
		if after.Mode()&0o111 != 0 {
			mode = filemode.Executable
		}
		kb, ka := keyOf(before, mode), keyOf(after, mode)
		f.mode, f.key = mode, ka
		// The inode of an open file cannot change; compare the rest, and
		// the path's own inode to notice replacement by rename.
		if kb == ka && int64(len(content)) == ka.size {
			if li, err := os.Lstat(abs); err == nil && keyOf(li, mode) == ka {
				return content, true, nil
			}
		}
	}
	return content, false, nil
}

func (sc *scanner) drop(f *scanFile, err error) {
	f.dropped = true
	if !errors.Is(err, fs.ErrNotExist) {
		sc.skip(f.rel, SkipUnreadable)
	}
}

// buildTree stores the tree of d and its subtrees. Empty directories have
// no tree (git cannot represent them) and report empty=true.
func (sc *scanner) buildTree(d *scanDir, res *scanResult) (plumbing.Hash, bool, error) {
	entries := make([]object.TreeEntry, 0, len(d.files)+len(d.dirs))
	for _, f := range d.files {
		if f.dropped {
			continue
		}
		entries = append(entries, object.TreeEntry{Name: f.name, Mode: f.mode, Hash: f.hash})
		res.files++
		if f.cacheable {
			res.cache[f.rel] = cacheEntry{key: f.key, hash: f.hash}
		}
	}
	for _, c := range d.dirs {
		h, empty, err := sc.buildTree(c, res)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if !empty {
			entries = append(entries, object.TreeEntry{Name: c.name, Mode: filemode.Dir, Hash: h})
		}
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, true, nil
	}
	sort.Slice(entries, func(i, j int) bool { return treeEntryLess(entries[i], entries[j]) })
	h, err := sc.s.putTree(entries)
	return h, false, err
}

// treeEntryLess is git's tree order: directories sort as if named "name/".
func treeEntryLess(a, b object.TreeEntry) bool {
	an, bn := a.Name, b.Name
	n := min(len(an), len(bn))
	if an[:n] != bn[:n] {
		return an[:n] < bn[:n]
	}
	ac, bc := byte(0), byte(0)
	if len(an) > n {
		ac = an[n]
	} else if a.Mode == filemode.Dir {
		ac = '/'
	}
	if len(bn) > n {
		bc = bn[n]
	} else if b.Mode == filemode.Dir {
		bc = '/'
	}
	return ac < bc
}

func (s *Store) putTree(entries []object.TreeEntry) (plumbing.Hash, error) {
	obj := &plumbing.MemoryObject{}
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.putEncoded(obj)
}

func (s *Store) putEncoded(obj *plumbing.MemoryObject) (plumbing.Hash, error) {
	r, err := obj.Reader()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return s.objs.put(obj.Type(), data)
}
