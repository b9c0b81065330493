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

// packScanThreshold: a scan with at least this many files to read writes
// its new objects into one pack rather than as loose files.
const packScanThreshold = 128

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
	rel   string
	files []*scanFile
	dirs  []*scanDir
}

// fileStat is the part of lstat a scan needs.
type fileStat struct {
	mode  fs.FileMode
	size  int64
	mtime int64
	ctime int64
	ino   uint64
}

type scanResult struct {
	tree    plumbing.Hash // ZeroHash when the workspace has no files
	files   int
	hashed  int // files read this scan (stat cache misses)
	skipped []Skipped
	cache   map[string]cacheEntry
	memo    map[string]treeMemo // trees built this scan, by directory
}

// treeMemo remembers a directory's last tree so an unchanged directory is
// not re-encoded and re-hashed on every scan.
type treeMemo struct {
	entries []object.TreeEntry
	hash    plumbing.Hash
}

// scanner walks directories in parallel (up to GOMAXPROCS goroutines);
// the shared fields below mu are guarded by it, each scanDir is written by
// the one goroutine walking it.
type scanner struct {
	ctx   context.Context
	s     *Store
	start time.Time
	sem   chan struct{}
	wg    sync.WaitGroup

	mu      sync.Mutex
	pending []*scanFile
	skipped []Skipped
	err     error
}

// scan walks the workspace, stores every new blob and tree, and returns the
// root tree. Callers hold the Store mutex.
func (s *Store) scan(ctx context.Context) (*scanResult, error) {
	sc := &scanner{ctx: ctx, s: s, start: time.Now(), sem: make(chan struct{}, runtime.GOMAXPROCS(0)-1)}
	root := &scanDir{}
	dh, err := openRootDir(s.root)
	if err != nil {
		return nil, err
	}
	sc.walk(root, dh, s.root, nil, rootIgnoreRules(s.root))
	sc.wg.Wait()
	if sc.err != nil {
		return nil, sc.err
	}
	usePack := len(sc.pending) >= packScanThreshold
	if usePack {
		if err := s.objs.beginPack(); err != nil {
			return nil, err
		}
	}
	res := &scanResult{cache: make(map[string]cacheEntry, len(s.cache.entries)), hashed: len(sc.pending),
		memo: make(map[string]treeMemo, len(s.treeMemo))}
	err = sc.hashPending()
	var tree plumbing.Hash
	if err == nil {
		tree, _, err = sc.buildTree(root, res)
	}
	if usePack {
		if perr := s.objs.endPack(err == nil); err == nil {
			err = perr
		}
		s.openStorage() // let go-git see the new pack
		s.packStamp = s.readPackStamp()
	}
	if err != nil {
		return nil, err
	}
	res.tree = tree
	// Only now are all the trees surely stored (a failed pack is dropped).
	s.treeMemo = res.memo
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

func (sc *scanner) fail(err error) {
	sc.mu.Lock()
	if sc.err == nil {
		sc.err = err
	}
	sc.mu.Unlock()
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// walk fills d from the directory open as dh (which it closes), walking
// subdirectories on spare goroutines when there are any.
func (sc *scanner) walk(d *scanDir, dh *dirHandle, abs string, comps []string, rules *ignoreRules) {
	entries, err := dh.entries()
	if err != nil {
		dh.close()
		if len(comps) == 0 {
			sc.fail(err)
		} else {
			sc.skip(d.rel+"/", SkipUnreadable)
		}
		return
	}
	if err := sc.ctx.Err(); err != nil {
		dh.close()
		sc.fail(err)
		return
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
	var pending []*scanFile
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue // never snapshot (or touch) any repository's metadata
		}
		isDir := e.Type().IsDir()
		path := append(comps[:len(comps):len(comps)], name)
		if rules.match(path, isDir) {
			continue
		}
		rel := joinRel(d.rel, name)
		childAbs := abs + string(filepath.Separator) + name // abs is clean; Join would re-clean it
		if isDir {
			if sc.s.skipDirs[name] {
				sc.skip(rel+"/", SkipListed)
				continue
			}
			if childAbs == sc.s.stateDir {
				continue
			}
			cdh, err := dh.openChild(name, childAbs)
			if err != nil {
				if !errors.Is(err, fs.ErrNotExist) {
					sc.skip(rel+"/", SkipUnreadable)
				}
				continue
			}
			child := &scanDir{name: name, rel: rel}
			d.dirs = append(d.dirs, child)
			select {
			case sc.sem <- struct{}{}:
				sc.wg.Add(1)
				go func() {
					defer sc.wg.Done()
					defer func() { <-sc.sem }()
					sc.walk(child, cdh, childAbs, path, rules)
				}()
			default:
				sc.walk(child, cdh, childAbs, path, rules)
			}
			continue
		}
		st, err := dh.lstat(name, childAbs)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				sc.skip(rel, SkipUnreadable)
			}
			continue
		}
		sf := &scanFile{name: name, rel: rel}
		switch m := st.mode; {
		case m.IsRegular():
			if st.size > sc.s.opts.MaxFileSize {
				sc.skip(rel, SkipTooLarge)
				continue
			}
			sf.mode = filemode.Regular
			if m&0o111 != 0 {
				sf.mode = filemode.Executable
			}
		case m&fs.ModeSymlink != 0:
			sf.mode = filemode.Symlink
		case m.IsDir():
			continue // replaced by a directory since ReadDir; next scan sees it
		default:
			sc.skip(rel, SkipSpecial)
			continue
		}
		sf.key = statKey{size: st.size, mtime: st.mtime, ctime: st.ctime, ino: st.ino, mode: sf.mode}
		if h, ok := sc.s.cache.lookup(rel, sf.key); ok {
			sf.hash, sf.cacheable = h, true
		} else {
			pending = append(pending, sf)
		}
		d.files = append(d.files, sf)
	}
	dh.close()
	if len(pending) > 0 {
		sc.mu.Lock()
		sc.pending = append(sc.pending, pending...)
		sc.mu.Unlock()
	}
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
	if m, ok := sc.s.treeMemo[d.rel]; ok && sameEntries(m.entries, entries) {
		res.memo[d.rel] = m
		return m.hash, false, nil
	}
	h, err := sc.s.putTree(entries)
	if err == nil {
		res.memo[d.rel] = treeMemo{entries: entries, hash: h}
	}
	return h, false, err
}

func sameEntries(a, b []object.TreeEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
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
