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
	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
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
	dropped   bool   // vanished or skipped while hashing
	skip      string // why it was dropped, when that is reported
	fresh     bool   // the watcher saw it change: never trust the stat cache
}

type scanDir struct {
	name    string
	rel     string
	files   []*scanFile
	dirs    []*scanDir
	skipped []Skipped // paths directly in this directory left out
	deep    bool      // inside a subtree the watcher says changed whole
	// memo, when set, is the directory's unchanged tree from the last
	// scan: an incremental scan did not open it.
	memo *treeMemo
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
	// incremental is set when only the directories in opened were listed
	// (the watcher said where the changes are); cache and memo then hold
	// only what those directories produced.
	incremental bool
	opened      []string
}

// treeMemo remembers a directory's last tree so an unchanged directory is
// not re-encoded and re-hashed on every scan, and, with the watcher, not
// even opened. It also keeps the subtree's totals that a snapshot reports.
type treeMemo struct {
	entries []object.TreeEntry
	hash    plumbing.Hash // ZeroHash for a directory with no files
	files   int           // files in the subtree
	skipped []Skipped     // paths left out in the subtree
	dirs    []string      // subdirectories that have a memo
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

	// inc is the watcher's change set for an incremental scan, nil for a
	// full one; open lists the directories it must list.
	inc  *changeSet
	open map[string]bool

	mu      sync.Mutex
	pending []*scanFile
	err     error
	opened  []string
}

// scan walks the workspace, stores every new blob and tree, and returns the
// root tree. With a watcher that vouches for its changes, only the
// directories leading to them are opened. Callers hold the Store mutex.
func (s *Store) scan(ctx context.Context) (*scanResult, error) {
	res, err := s.scanOpen(ctx)
	if err != nil {
		return nil, err
	}
	return res, s.finishScan(res, true)
}

// scanOpen is scan leaving its pack open, so a snapshot adds its commit
// to the same pack (one pack and one index are all the files a snapshot
// creates). The caller must end it with finishScan. New trees are in the
// tree cache, so the caller can diff them before the pack is installed.
func (s *Store) scanOpen(ctx context.Context) (*scanResult, error) {
	sc := &scanner{ctx: ctx, s: s, start: time.Now(), sem: make(chan struct{}, runtime.GOMAXPROCS(0)-1)}
	rules := rootIgnoreRules(s.root)
	sc.plan()
	root := &scanDir{}
	dh, err := openRootDir(s.root)
	if err != nil {
		s.invalidateWatch()
		return nil, err
	}
	sc.walk(root, dh, s.root, nil, rules)
	sc.wg.Wait()
	if sc.err != nil {
		s.invalidateWatch()
		return nil, sc.err
	}
	s.objs.beginPack()
	res := &scanResult{cache: map[string]cacheEntry{}, hashed: len(sc.pending),
		memo: map[string]treeMemo{}, incremental: sc.inc != nil, opened: sc.opened}
	if !res.incremental {
		res.cache = make(map[string]cacheEntry, len(s.cache.entries))
		res.memo = make(map[string]treeMemo, len(s.treeMemo))
	}
	err = sc.hashPending()
	var top treeMemo
	if err == nil {
		top, err = sc.buildTree(root, res)
	}
	if err != nil {
		s.finishScan(res, false)
		return nil, err
	}
	res.tree, res.files = top.hash, top.files
	res.skipped = append([]Skipped(nil), top.skipped...)
	sort.Slice(res.skipped, func(i, j int) bool { return res.skipped[i].Path < res.skipped[j].Path })
	return res, nil
}

// finishScan installs the scan's pack (keep) or drops it. Only once the
// pack is installed are the trees and blobs the stat cache and tree memo
// name surely stored, so only then do they describe the scan.
func (s *Store) finishScan(res *scanResult, keep bool) error {
	wrote, err := s.objs.endPack(keep)
	if wrote {
		s.storageStale = true // go-git sees the pack once reopened
		s.packStamp = s.readPackStamp()
	}
	if !keep || err != nil {
		s.trees = nil // may name trees of the dropped pack
		s.invalidateWatch()
		return err
	}
	s.commitScan(res)
	s.lastHashed = res.hashed
	s.lastIncremental = res.incremental
	return nil
}

// plan decides between a full and an incremental scan.
func (sc *scanner) plan() {
	s := sc.s
	if s.watch == nil {
		return
	}
	cs, ok, why := s.watch.take()
	stamp := rootIgnoreStamp(s.root)
	if ok && stamp != s.ignoreStamp {
		ok, why = false, "the global or repository exclude rules changed"
	}
	if ok && s.treeMemo == nil {
		ok, why = false, "no trees are remembered from a previous scan"
	}
	s.ignoreStamp = stamp
	if !ok {
		s.log.Info("snapshot: full scan", zap.String("root", s.root), zap.String("why", why))
		return
	}
	sc.inc = &cs
	sc.open = cs.opened()
}

func (s *Store) invalidateWatch() {
	if s.watch != nil {
		s.watch.invalidate()
	}
}

// commitScan makes the stat cache and the tree memo describe the scan.
func (s *Store) commitScan(res *scanResult) {
	if !res.incremental {
		s.cache.replace(res.cache)
		s.treeMemo = res.memo
		return
	}
	// Forget what the opened directories held before: their files, and
	// subdirectories that are gone (or no longer have a tree).
	for _, rel := range res.opened {
		old, ok := s.treeMemo[rel]
		if !ok {
			continue
		}
		for _, e := range old.entries {
			if e.Mode != filemode.Dir {
				s.cache.forget(joinRel(rel, e.Name))
			}
		}
		for _, name := range old.dirs {
			if child := joinRel(rel, name); !hasMemo(res.memo, child) {
				s.dropMemo(child)
			}
		}
	}
	s.cache.merge(res.cache)
	for rel, m := range res.memo {
		s.treeMemo[rel] = m
	}
}

func hasMemo(m map[string]treeMemo, rel string) bool { _, ok := m[rel]; return ok }

// dropMemo forgets a vanished directory's subtree.
func (s *Store) dropMemo(rel string) {
	m, ok := s.treeMemo[rel]
	if !ok {
		return
	}
	delete(s.treeMemo, rel)
	for _, e := range m.entries {
		if e.Mode != filemode.Dir {
			s.cache.forget(joinRel(rel, e.Name))
		}
	}
	for _, name := range m.dirs {
		s.dropMemo(joinRel(rel, name))
	}
}

func (d *scanDir) skip(rel, reason string) {
	d.skipped = append(d.skipped, Skipped{Path: rel, Reason: reason})
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
			d.skip(d.rel+"/", SkipUnreadable)
		}
		return
	}
	if sc.inc != nil {
		sc.mu.Lock()
		sc.opened = append(sc.opened, d.rel)
		sc.mu.Unlock()
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
				d.skip(rel+"/", SkipListed)
				continue
			}
			if childAbs == sc.s.stateDir {
				continue
			}
			deep := d.deep || (sc.inc != nil && sc.inc.deep[rel])
			if sc.inc != nil && !deep && !sc.open[rel] {
				if m, ok := sc.s.treeMemo[rel]; ok {
					// Unchanged since the last scan: its tree as it was.
					d.dirs = append(d.dirs, &scanDir{name: name, rel: rel, memo: &m})
					continue
				}
			}
			cdh, err := dh.openChild(name, childAbs)
			if err != nil {
				if !errors.Is(err, fs.ErrNotExist) {
					d.skip(rel+"/", SkipUnreadable)
				}
				continue
			}
			child := &scanDir{name: name, rel: rel, deep: deep}
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
				d.skip(rel, SkipUnreadable)
			}
			continue
		}
		sf := &scanFile{name: name, rel: rel, fresh: sc.inc != nil && sc.inc.deep[rel]}
		switch m := st.mode; {
		case m.IsRegular():
			if st.size > sc.s.opts.MaxFileSize {
				d.skip(rel, SkipTooLarge)
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
			d.skip(rel, SkipSpecial)
			continue
		}
		sf.key = statKey{size: st.size, mtime: st.mtime, ctime: st.ctime, ino: st.ino, mode: sf.mode}
		if h, ok := sc.s.cache.lookup(rel, sf.key); ok && !sf.fresh {
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
			var buf []byte // reused: nothing keeps the content once stored
			for f := range ch {
				if err := sc.hashFile(f, &buf); err != nil {
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
func (sc *scanner) hashFile(f *scanFile, buf *[]byte) error {
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
		content, stable, err = sc.readStable(f, abs, buf)
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
// The content is read into *buf (grown as needed), so it is only valid
// until the next call with the same buffer.
func (sc *scanner) readStable(f *scanFile, abs string, buf *[]byte) ([]byte, bool, error) {
	// The walk's lstat saw a regular file; the descriptor is checked
	// again, so a FIFO or a device swapped in since is refused rather
	// than waited on or read without end, and a symbolic link swapped in
	// is not followed.
	fh, _, err := safefile.Open(abs, safefile.Options{NoFollow: true})
	if err != nil {
		return nil, false, err
	}
	defer fh.Close()
	limit := sc.s.opts.MaxFileSize
	// Fast path, four system calls: the walk's lstat sized the read, and
	// an fstat after it that still equals that lstat (same inode, size,
	// mtime and ctime to the nanosecond) proves the file did not change
	// from the walk to the end of the read. A later rename over the path
	// needs no check here: it gives the path another inode, so the next
	// scan's lstat misses this cache entry.
	if f.key.size <= limit {
		b := growBuf(buf, int(f.key.size))
		n, rerr := io.ReadFull(fh, b)
		if rerr == nil || rerr == io.ErrUnexpectedEOF {
			if after, err := fh.Stat(); err == nil && after.Mode().IsRegular() {
				mode := filemode.Regular
				if after.Mode()&0o111 != 0 {
					mode = filemode.Executable
				}
				if ka := keyOf(after, mode); ka == f.key && int64(n) == ka.size {
					return b[:n], true, nil
				}
			}
		}
	}
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
		content, err = readAllInto(fh, buf, limit+1)
		if err != nil {
			return nil, false, err
		}
		if int64(len(content)) > limit {
			f.dropped, f.skip = true, SkipTooLarge
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

// growBuf returns (*buf)[:n], reallocating when it is too small.
func growBuf(buf *[]byte, n int) []byte {
	if cap(*buf) < n {
		*buf = make([]byte, n, n+n/8)
	}
	return (*buf)[:n]
}

// readAllInto reads r to its end, or to max bytes, into *buf.
func readAllInto(r io.Reader, buf *[]byte, max int64) ([]byte, error) {
	b := (*buf)[:0]
	for int64(len(b)) < max {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		room := b[len(b):cap(b)]
		if rest := max - int64(len(b)); int64(len(room)) > rest {
			room = room[:rest]
		}
		n, err := r.Read(room)
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			*buf = b
			return nil, err
		}
	}
	*buf = b
	return b, nil
}

func (sc *scanner) drop(f *scanFile, err error) {
	f.dropped = true
	if !errors.Is(err, fs.ErrNotExist) {
		f.skip = SkipUnreadable
	}
}

// buildTree stores the tree of d and its subtrees and returns d's memo.
// Empty directories have no tree (git cannot represent them): their memo
// has a zero hash.
func (sc *scanner) buildTree(d *scanDir, res *scanResult) (treeMemo, error) {
	if d.memo != nil {
		res.memo[d.rel] = *d.memo
		return *d.memo, nil
	}
	m := treeMemo{skipped: d.skipped}
	entries := make([]object.TreeEntry, 0, len(d.files)+len(d.dirs))
	for _, f := range d.files {
		if f.dropped {
			if f.skip != "" {
				m.skipped = append(m.skipped, Skipped{Path: f.rel, Reason: f.skip})
			}
			continue
		}
		entries = append(entries, object.TreeEntry{Name: f.name, Mode: f.mode, Hash: f.hash})
		m.files++
		if f.cacheable {
			res.cache[f.rel] = cacheEntry{key: f.key, hash: f.hash}
		}
	}
	for _, c := range d.dirs {
		cm, err := sc.buildTree(c, res)
		if err != nil {
			return treeMemo{}, err
		}
		m.dirs = append(m.dirs, c.name)
		m.files += cm.files
		m.skipped = append(m.skipped, cm.skipped...)
		if !cm.hash.IsZero() {
			entries = append(entries, object.TreeEntry{Name: c.name, Mode: filemode.Dir, Hash: cm.hash})
		}
	}
	if len(entries) == 0 {
		res.memo[d.rel] = m
		return m, nil
	}
	sort.Slice(entries, func(i, j int) bool { return treeEntryLess(entries[i], entries[j]) })
	if old, ok := sc.s.treeMemo[d.rel]; ok && !old.hash.IsZero() && sameEntries(old.entries, entries) {
		m.entries, m.hash = old.entries, old.hash
	} else {
		h, err := sc.s.putTree(entries)
		if err != nil {
			return treeMemo{}, err
		}
		m.entries, m.hash = entries, h
		sc.s.cacheTree(h, entries)
	}
	res.memo[d.rel] = m
	return m, nil
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
