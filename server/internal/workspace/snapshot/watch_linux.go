package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"golang.org/x/sys/unix"
)

// inotifyWatcher watches every directory of the workspace that a scan may
// enter (inotify is not recursive), except .git, the skip list and the
// state directory. Ignored directories are watched too, so a .gitignore
// change never needs new watches; their events only mark dirty
// directories the scan then does not enter.
//
// Ordering: inotify queues the events of all watches of one instance in
// order. take creates a "cookie" file in a private watched directory and
// waits for its event, so every event queued before (say, by a shell
// command that already exited) has been recorded.
type inotifyWatcher struct {
	root, cookieDir, stateDir string
	skipDirs                  map[string]bool
	w                         *fsnotify.Watcher
	done                      chan struct{}
	readyCh                   chan struct{}

	mu       sync.Mutex
	isReady  bool
	needFull string // non-empty: the next take fails with this reason
	broken   string // non-empty: the watcher is gone for good
	changes  changeSet
	watched  map[string]bool // absolute directories
	cookieN  int
	cookies  map[string]chan struct{}
}

// Filesystems whose changes inotify may not see: network and FUSE mounts
// (edits made on another machine, or by the FUSE daemon) and 9p (WSL's
// view of Windows drives).
var unwatchableFS = map[int64]string{
	0x6969: "NFS", 0x517B: "SMB", 0xFF534D42: "CIFS", 0xFE534D42: "SMB2",
	0x65735546: "FUSE", 0x01021997: "9p", 0x564c: "NCP", 0x73757245: "Coda",
}

func (s *Store) startWatcher() (changeSource, string) {
	var st unix.Statfs_t
	if err := unix.Statfs(s.root, &st); err == nil {
		if name, ok := unwatchableFS[int64(st.Type)]; ok {
			return nil, name + " filesystem: changes made elsewhere would go unseen"
		}
	}
	fw, err := fsnotify.NewBufferedWatcher(1024)
	if err != nil {
		return nil, "inotify unavailable: " + err.Error()
	}
	// Each process gets its own cookie directory: several may share a store.
	removeStaleCookieDirs(s.dir)
	cookieDir, err := os.MkdirTemp(s.dir, cookieDirPrefix)
	if err == nil {
		err = fw.Add(cookieDir)
	}
	if err != nil {
		fw.Close()
		return nil, "cannot watch a directory in " + s.dir + ": " + err.Error()
	}
	w := &inotifyWatcher{
		root: s.root, cookieDir: cookieDir, stateDir: s.stateDir, skipDirs: s.skipDirs,
		w: fw, done: make(chan struct{}), readyCh: make(chan struct{}), needFull: "the watcher is starting",
		changes: newChangeSet(), watched: map[string]bool{}, cookies: map[string]chan struct{}{},
	}
	go w.loop()
	go func() {
		w.addTree(w.root)
		w.mu.Lock()
		w.isReady = true
		if w.broken == "" {
			w.needFull = "the watcher just started (changes before it are unknown)"
		}
		w.mu.Unlock()
		close(w.readyCh)
	}()
	return w, ""
}

const cookieDirPrefix = "watch-cookies-"

// removeStaleCookieDirs deletes cookie directories that crashed processes
// left. A directory untouched for a day may belong to an idle live
// process; take recreates it if it vanished.
func removeStaleCookieDirs(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), cookieDirPrefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > 24*time.Hour {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

func (w *inotifyWatcher) readyC() <-chan struct{} { return w.readyCh }

func (w *inotifyWatcher) close() {
	w.w.Close()
	<-w.done
	os.RemoveAll(w.cookieDir)
}

func (w *inotifyWatcher) invalidate() {
	w.mu.Lock()
	if w.needFull == "" {
		w.needFull = "the last scan failed"
	}
	w.mu.Unlock()
}

func (w *inotifyWatcher) take() (changeSet, bool, string) {
	w.mu.Lock()
	if w.broken != "" {
		why := w.broken
		w.mu.Unlock()
		return changeSet{}, false, why
	}
	if !w.isReady {
		w.mu.Unlock()
		return changeSet{}, false, "the watcher is still adding watches"
	}
	w.cookieN++
	name := filepath.Join(w.cookieDir, "c"+strconv.Itoa(w.cookieN))
	ch := make(chan struct{})
	w.cookies[name] = ch
	w.mu.Unlock()

	err := os.WriteFile(name, nil, 0o600)
	if errors.Is(err, fs.ErrNotExist) && os.Mkdir(w.cookieDir, 0o700) == nil {
		if err = w.w.Add(w.cookieDir); err == nil {
			err = os.WriteFile(name, nil, 0o600)
		}
	}
	if err == nil {
		select {
		case <-ch:
		case <-time.After(barrierTimeout):
			err = errors.New("timed out")
		}
		os.Remove(name)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.cookies, name)
	// Whatever happens now, a new period starts: a full scan covers the
	// changes so far, and events from here on go into the new set.
	cs := w.changes
	w.changes = newChangeSet()
	switch {
	case w.broken != "":
		return changeSet{}, false, w.broken
	case err != nil:
		return changeSet{}, false, "the watcher did not answer: " + err.Error()
	case w.needFull != "":
		why := w.needFull
		w.needFull = ""
		return changeSet{}, false, why
	}
	return cs, true, ""
}

func (w *inotifyWatcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.w.Events:
			if !ok {
				return
			}
			w.handle(ev)
		case err, ok := <-w.w.Errors:
			if !ok {
				return
			}
			w.mu.Lock()
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.needFull = "the watcher's event queue overflowed (fs.inotify.max_queued_events)"
			} else {
				w.needFull = "the watcher reported: " + err.Error()
			}
			w.mu.Unlock()
		}
	}
}

func (w *inotifyWatcher) rel(abs string) (string, bool) {
	r, ok := strings.CutPrefix(abs, w.root+string(filepath.Separator))
	if !ok || r == "" {
		return "", false
	}
	return filepath.ToSlash(r), true
}

func (w *inotifyWatcher) handle(ev fsnotify.Event) {
	if filepath.Dir(ev.Name) == w.cookieDir {
		if ev.Has(fsnotify.Create) {
			w.mu.Lock()
			if ch := w.cookies[ev.Name]; ch != nil {
				close(ch)
				delete(w.cookies, ev.Name)
			}
			w.mu.Unlock()
		}
		return
	}
	rel, ok := w.rel(ev.Name)
	if !ok {
		return
	}
	w.mu.Lock()
	w.changes.add(rel)
	gone := ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
	if gone && w.watched[ev.Name] {
		// A watch follows its inode, so a moved directory would go on
		// reporting under its old name: drop its watches (and its
		// subdirectories'); its new name, if inside, gets fresh ones.
		prefix := ev.Name + string(filepath.Separator)
		for d := range w.watched {
			if d == ev.Name || strings.HasPrefix(d, prefix) {
				delete(w.watched, d)
				_ = w.w.Remove(d)
			}
		}
	}
	w.mu.Unlock()
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			w.addTree(ev.Name) // the scan re-reads it whole (deep)
		}
	}
}

// addTree watches dir and every directory below it a scan may enter.
func (w *inotifyWatcher) addTree(dir string) {
	base := filepath.Base(dir)
	if dir != w.root && (base == ".git" || w.skipDirs[base] || dir == w.stateDir) {
		return
	}
	if err := w.w.Add(dir); err != nil {
		if errors.Is(err, unix.ENOSPC) {
			w.fail(fmt.Sprintf("the inotify watch limit is reached (fs.inotify.max_user_watches; %d watches held)", w.count()))
		}
		return // vanished or unreadable: its parent's event covers it
	}
	w.mu.Lock()
	w.watched[dir] = true
	broken := w.broken != ""
	w.mu.Unlock()
	if broken {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() {
			w.addTree(filepath.Join(dir, e.Name()))
		}
	}
}

func (w *inotifyWatcher) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.watched)
}

// fail gives up watching for good: every scan is a full one from now on.
func (w *inotifyWatcher) fail(why string) {
	w.mu.Lock()
	if w.broken == "" {
		w.broken = why
	}
	w.mu.Unlock()
	// Free the watches for other programs; Close ends loop.
	go w.w.Close()
}
