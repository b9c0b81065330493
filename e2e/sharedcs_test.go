package e2e

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// One code-server serves, one after the other, every test that can share
// it (issue #34 §6). Starting code-server and installing the .vsix into it
// (`--install-extension` is a slow node start) cost each test 10-20 s on
// two cores; shared, the suite pays that once. What a test sees stays its
// own: its workspace folder (?folder=), its Chromium and browser context (in
// code-server the workbench's storage, the extension's globalState and its
// SecretStorage live in the browser), its scripted model, and its user
// settings.json, written before its page opens (a window's extension host
// reads the settings when it starts). GoVibe's chat history is keyed by the
// workspace's identity, and every test has its own folder. What would leak
// is reset before each test: HOME (GoVibe's user-level settings, allow
// rules, memory, skills and MCP config live under it) goes back to what it
// held before the first window, and the previous test's window, closed at
// its end, has to have no process left (leaseSharedCodeServer.release).
//
// Tests run one after the other (none calls t.Parallel); the lease's mutex
// makes that an invariant rather than an assumption.
var sharedCS struct {
	lease sync.Mutex // held by the test using the server
	mu    sync.Mutex // guards the fields below
	cs    *codeServer
	dirs  codeServerDirs
	base  string          // temp dir holding dirs and the logs; removed at the end
	home  map[string]bool // paths under dirs.home before any window opened
	err   error           // why the server could not start, for every later test
}

// sharedCodeServerOff turns sharing off (every test gets its own server),
// to tell a failure caused by sharing from one that is not.
func sharedCodeServerOff() bool { return os.Getenv("GOVIBE_E2E_SHARED_CODESERVER") == "0" }

// canShare says whether a test with these options can run on the shared
// server. Without the extension, with workspace trust on, or with a
// BeforeOpen hook (which seeds code-server's dirs before the first load, as
// the start-up bench does) a test needs a server of its own, as does one
// that says so (PrivateCodeServer: it stops the server, counts its
// processes or reads its whole user-data dir). A multi-root window
// (SecondFolder, opened from a .code-workspace file) gets its own too: on
// the shared server one such window once came up with no folders at all
// (the title said "two (Workspace)", the extension host got none), which
// a private server has never shown; until that is understood, it stays
// off the shared server.
func canShare(opts harnessOptions) bool {
	return opts.Extension && !opts.WorkspaceTrust && opts.BeforeOpen == nil && !opts.SecondFolder &&
		!opts.PrivateCodeServer && !sharedCodeServerOff()
}

// sharedLease is one test's use of the shared server.
type sharedLease struct {
	cs        *codeServer
	dirs      codeServerDirs
	before    map[int]bool // the server's processes when the test began
	logOffset int64        // code-server.log's size when the test began
	since     time.Time
	settle    time.Duration // how long the window's processes get to end; settleTimeout when 0
}

// reporter is what release reports to: the test (testing.T), or the
// self-test's recorder.
type reporter interface {
	Logf(format string, args ...any)
	Errorf(format string, args ...any)
}

// leaseSharedCodeServer waits for the shared server to be free, starts it
// if no test has yet (or it died), puts HOME back as it was before the
// first window, and registers the lease's release. The caller writes the
// test's settings.json after this and before opening its page.
func leaseSharedCodeServer(t *testing.T, env toolEnv, root string) *sharedLease {
	t.Helper()
	sharedCS.lease.Lock()
	l := &sharedLease{since: time.Now()}
	t.Cleanup(func() { l.release(t) })
	cs, dirs, err := sharedCodeServer(env, root)
	if err != nil {
		t.Fatalf("shared code-server: %v", err)
	}
	l.cs, l.dirs = cs, dirs
	removed, err := resetHome(dirs.home, sharedCS.home)
	if err != nil {
		t.Fatalf("reset the shared code-server's HOME: %v", err)
	}
	if len(removed) > 0 {
		t.Logf("shared code-server: removed what earlier tests left in HOME: %v", removed)
	}
	if info, err := os.Stat(cs.LogPath); err == nil {
		l.logOffset = info.Size()
	}
	l.before = map[int]bool{}
	for _, p := range serverProcesses(cs) {
		l.before[p.pid] = true
	}
	return l
}

// sharedCodeServer returns the running shared server, starting it first if
// there is none or the one there stopped answering.
func sharedCodeServer(env toolEnv, root string) (*codeServer, codeServerDirs, error) {
	sharedCS.mu.Lock()
	defer sharedCS.mu.Unlock()
	if sharedCS.err != nil {
		return nil, sharedCS.dirs, sharedCS.err
	}
	if sharedCS.cs != nil {
		if sharedCS.cs.awaitHealthy(5*time.Second) == nil {
			return sharedCS.cs, sharedCS.dirs, nil
		}
		// Dead or wedged: start again on the same dirs (the extension stays
		// installed); the old log stays next to the new one.
		fmt.Fprintf(os.Stderr, "e2e: the shared code-server stopped answering; starting another (log %s)\n", sharedCS.cs.LogPath)
		if escaped := sharedCS.cs.Stop(); len(escaped) > 0 {
			sharedCS.err = fmt.Errorf("processes escaped the shared code-server's process group: %v", escaped)
			return nil, sharedCS.dirs, sharedCS.err
		}
		_ = os.Rename(sharedCS.cs.LogPath, sharedCS.cs.LogPath+fmt.Sprintf(".%d", time.Now().Unix()))
		sharedCS.cs = nil
	}
	if sharedCS.base == "" {
		base, err := os.MkdirTemp("", "govibe-e2e-shared-")
		if err != nil {
			sharedCS.err = err
			return nil, codeServerDirs{}, err
		}
		sharedCS.base = base
		if sharedCS.dirs, err = makeCodeServerDirs(base); err != nil {
			sharedCS.err = err
			return nil, sharedCS.dirs, err
		}
		if err := installVSIX(env, sharedCS.dirs, vsixPath(root), filepath.Join(base, "install-extension.log")); err != nil {
			sharedCS.err = err
			return nil, sharedCS.dirs, err
		}
	}
	cs, err := launchCodeServer(env, sharedCS.dirs, filepath.Join(sharedCS.base, "code-server.log"), false)
	if err != nil {
		if cs != nil {
			cs.Stop()
		}
		sharedCS.err = err
		return nil, sharedCS.dirs, err
	}
	sharedCS.cs = cs
	if sharedCS.home == nil {
		sharedCS.home = listTree(sharedCS.dirs.home)
	}
	return cs, sharedCS.dirs, nil
}

// stopSharedCodeServer ends the shared server at the end of the package (as
// the private ones end with their test) and reports what escaped its
// process group, which fails the run.
func stopSharedCodeServer() error {
	sharedCS.mu.Lock()
	defer sharedCS.mu.Unlock()
	if sharedCS.cs == nil {
		if sharedCS.base != "" {
			_ = os.RemoveAll(sharedCS.base)
		}
		return nil
	}
	if escaped := sharedCS.cs.Stop(); len(escaped) > 0 {
		return fmt.Errorf("processes escaped the shared code-server's process group and outlived it (killed now): %v; its files are kept in %s", escaped, sharedCS.base)
	}
	_ = os.RemoveAll(sharedCS.base)
	return nil
}

// release ends the test's use of the server, after its Chromium has
// closed (so its window is gone): every process started during the test
// has to end with the window (the extension host, the sidecar and what
// they started), so the next test's extension host is the only one alive
// and finds no process of this one. A window's process still running after
// the settle time is stopped; one outside code-server's process group (it
// left with setsid or a double fork, e.g. a detached sidecar) fails the
// test, as the private server's stop does. Terminals are the exception:
// VS Code's pty host keeps a closed window's terminals (their shells run in
// sessions of their own) for a reconnection that will not come, where a
// private server's stop ends them with the pty host; they get the hang-up
// a closed terminal gives its shell, and are logged.
func (l *sharedLease) release(t reporter) {
	defer sharedCS.lease.Unlock()
	if l.cs == nil {
		return
	}
	var left, terminals []procInfo
	windowProcs := func() []procInfo {
		left, terminals = left[:0], terminals[:0]
		for _, p := range serverProcesses(l.cs) {
			switch {
			case l.before[p.pid] || isServerService(p):
			case underPtyHost(p.pid):
				terminals = append(terminals, p)
			default:
				left = append(left, p)
			}
		}
		return left
	}
	// Event-free: /proc has no "process gone" notification (see waitUntil).
	settle := l.settle
	if settle == 0 {
		settle = settleTimeout
	}
	start := time.Now()
	ended := waitUntil(settle, func() bool { return len(windowProcs()) == 0 })
	if len(terminals) > 0 {
		t.Logf("shared code-server: hanging up the closed window's terminals: %v", terminals)
		for _, p := range terminals {
			_ = syscall.Kill(p.pid, syscall.SIGHUP)
		}
	}
	if ended {
		t.Logf("shared code-server: the window's processes ended %v after its Chromium closed", time.Since(start).Round(time.Millisecond))
	} else {
		var escaped, stayed []procInfo
		for _, p := range left {
			if pgidOf(p.pid) == l.cs.PGID {
				stayed = append(stayed, p)
			} else {
				escaped = append(escaped, p)
			}
			_ = syscall.Kill(p.pid, syscall.SIGTERM)
		}
		if len(stayed) > 0 {
			t.Logf("shared code-server: the window's processes outlived its close by %v and were stopped: %v", settle, stayed)
		}
		if len(escaped) > 0 {
			t.Errorf("processes escaped code-server's process group and outlived the test's window (killed now): %v", escaped)
		}
	}
	all := func() bool { return len(windowProcs()) == 0 && len(terminals) == 0 }
	if !waitUntil(10*time.Second, all) {
		for _, p := range append(left, terminals...) {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
		if !waitUntil(5*time.Second, all) {
			t.Errorf("the window's processes survived SIGKILL: %v %v", left, terminals)
		}
	}
}

// underPtyHost tells whether a process descends from VS Code's pty host:
// a terminal's shell or what it started.
func underPtyHost(pid int) bool {
	for i := 0; i < 64 && pid > 1; i++ {
		pid = ppidOf(pid)
		if pid <= 1 {
			return false
		}
		if strings.Contains(readProc(pid).cmdline, "--type=ptyHost") {
			return true
		}
	}
	return false
}

// serverProcesses are the live processes of a code-server: its process
// group and whatever carries its mark.
func serverProcesses(cs *codeServer) []procInfo {
	seen := map[int]bool{}
	var out []procInfo
	for _, p := range append(groupProcesses(cs.PGID), markedProcesses(cs.Mark)...) {
		if !seen[p.pid] {
			seen[p.pid] = true
			out = append(out, p)
		}
	}
	return out
}

// isServerService tells the server's own long-lived helpers, which VS Code
// starts on first use and keeps for every later window, from a window's
// processes: the pty host (terminals' parent) and the file watcher.
func isServerService(p procInfo) bool {
	return strings.Contains(p.cmdline, "--type=ptyHost") || strings.Contains(p.cmdline, "--type=fileWatcher")
}

// listTree lists the paths under dir, relative to it.
func listTree(dir string) map[string]bool {
	paths := map[string]bool{}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			paths[rel] = true
		}
		return nil
	})
	return paths
}

// resetHome removes from home whatever was not there before the first
// window opened, except code-server's own data dir, and writes the git
// identity again: the next test starts with the HOME a private server
// would give it (GoVibe's user-level files all live under it).
func resetHome(home string, keep map[string]bool) (removed []string, err error) {
	own := filepath.Join(".local", "share", "code-server")
	var extra []string
	err = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == home {
			return err
		}
		rel, _ := filepath.Rel(home, p)
		if rel == own || strings.HasPrefix(rel, own+string(filepath.Separator)) {
			return fs.SkipDir
		}
		if strings.HasPrefix(own, rel+string(filepath.Separator)) {
			return nil // .local, .local/share: kept for code-server's dir
		}
		if !keep[rel] {
			extra = append(extra, p)
			if d.IsDir() {
				return fs.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range extra {
		// A test may have left a read-only tree (a Go module cache does).
		_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(q, 0o755)
			}
			return nil
		})
		if err := os.RemoveAll(p); err != nil {
			return removed, err
		}
		rel, _ := filepath.Rel(home, p)
		removed = append(removed, rel)
	}
	return removed, writeGitconfig(home)
}

// copyArtifacts adds to a failing test's artifacts what the shared server
// logged while the test ran: the part of code-server.log written since the
// lease began, the install log, and the user-data files written since then
// (the window's extension host and output-channel logs, the sidecar's log).
func (l *sharedLease) copyArtifacts(dst string) int {
	if l.cs == nil {
		return 0
	}
	if f, err := os.Open(l.cs.LogPath); err == nil {
		if _, err := f.Seek(l.logOffset, io.SeekStart); err == nil {
			if out, err := os.Create(filepath.Join(dst, "code-server.log")); err == nil {
				fmt.Fprintf(out, "[e2e] shared code-server log from byte %d (this test's part); whole log: %s\n", l.logOffset, l.cs.LogPath)
				_, _ = io.Copy(out, f)
				out.Close()
			}
		}
		f.Close()
	}
	_ = copyFile(filepath.Join(filepath.Dir(l.cs.LogPath), "install-extension.log"), filepath.Join(dst, "install-extension.log"))
	return copyLogsSince(l.dirs.userData, filepath.Join(dst, "user-data"), l.since)
}
