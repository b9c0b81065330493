package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// codeServer is one running code-server: a test's own, or the one the
// tests that can share it share (sharedcs_test.go).
type codeServer struct {
	URL           string // base URL, ending in "/"
	UserDataDir   string
	ExtensionsDir string
	LogPath       string // code-server's own stdout and stderr
	Mark          string // value of markEnv in every process of its tree
	PGID          int

	stopOnce sync.Once
	escaped  []procInfo
	stopFn   func() []procInfo
}

// Stop ends code-server's process tree (once; later calls return the first
// result) and returns the processes that had escaped its group.
func (c *codeServer) Stop() []procInfo {
	c.stopOnce.Do(func() { c.escaped = c.stopFn() })
	return c.escaped
}

// codeServerDirs are the directories one code-server reads and writes.
type codeServerDirs struct {
	userData, extensions, home string
}

var goEnvOnce = sync.OnceValue(func() []string {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 {
		return nil
	}
	return []string{"GOCACHE=" + lines[0], "GOMODCACHE=" + lines[1], "GOPATH=" + lines[2]}
})

func goCacheEnv() []string { return goEnvOnce() }

func newCodeServerDirs(t *testing.T) codeServerDirs {
	t.Helper()
	d, err := makeCodeServerDirs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// makeCodeServerDirs creates the user-data, extensions and home dirs under
// base, with a git identity in home.
func makeCodeServerDirs(base string) (codeServerDirs, error) {
	d := codeServerDirs{
		userData:   filepath.Join(base, "user-data"),
		extensions: filepath.Join(base, "extensions"),
		home:       filepath.Join(base, "home"),
	}
	for _, p := range []string{d.userData, filepath.Join(d.userData, "User"), d.extensions, d.home} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			return d, err
		}
	}
	return d, writeGitconfig(d.home)
}

// writeGitconfig gives any commit the product makes in the workspace an
// identity.
func writeGitconfig(home string) error {
	gitconfig := "[user]\n\tname = GoVibe E2E\n\temail = e2e@example.com\n[init]\n\tdefaultBranch = main\n"
	return os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644)
}

// codeServerEnv isolates code-server from the machine: HOME, config, data and
// caches live under the test's temp dir (so VS Code's login-shell environment
// probe reads no rc file of the machine's user), and variables that would make
// the CLI talk to some other running VS Code instance are dropped. Go's caches
// stay the machine's: a cold build cache would make any `go test` the agent
// runs take minutes on two cores.
func codeServerEnv(d codeServerDirs) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "VSCODE_") || strings.HasPrefix(k, "CODE_SERVER_") ||
			k == "PASSWORD" || k == "HASHED_PASSWORD" || strings.HasPrefix(k, "XDG_") || k == markEnv ||
			k == "HOME" || k == "GOCACHE" || k == "GOMODCACHE" || k == "GOPATH" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, goCacheEnv()...)
	return append(env,
		"HOME="+d.home,
		// The sidecar logs here unless the extension names a log dir itself
		// (then it is under the user-data dir's logs/); both are collected.
		"GOVIBE_LOG_DIR="+filepath.Join(d.userData, "govibe-sidecar-logs"),
		// No extension gallery: the workbench would otherwise query one on
		// the internet for updates of the installed extensions.
		`EXTENSIONS_GALLERY={}`,
		"XDG_CONFIG_HOME="+filepath.Join(d.home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(d.home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(d.home, ".cache"),
	)
}

// installExtension runs `code-server --install-extension` into the test's
// extensions dir, as a user installing the .vsix would.
func installExtension(t *testing.T, env toolEnv, d codeServerDirs, vsix string, logPath string) {
	t.Helper()
	if err := installVSIX(env, d, vsix, logPath); err != nil {
		t.Fatal(err)
	}
}

// installVSIX is installExtension without a test, for the shared
// code-server (sharedcs_test.go), which outlives the test that starts it.
func installVSIX(env toolEnv, d codeServerDirs, vsix string, logPath string) error {
	if _, err := os.Stat(vsix); err != nil {
		return fmt.Errorf("GoVibe .vsix not found (%v): build it with `make vsix-local`, or point GOVIBE_VSIX at one", err)
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(env.Node, env.CodeServerEntry,
		"--user-data-dir", d.userData, "--extensions-dir", d.extensions,
		"--install-extension", vsix)
	cmd.Env = codeServerEnv(d)
	cmd.Stdout, cmd.Stderr = logf, logf
	mark := newMark()
	if err := startGroup(cmd, mark); err != nil {
		return err
	}
	// The CLI exits by itself; stopGroup then only reaps it and proves nothing
	// it spawned stayed behind.
	state, waitErr := waitProcess(cmd, 2*time.Minute)
	if escaped := stopGroup(cmd, mark, settleTimeout, time.Second); len(escaped) > 0 {
		return fmt.Errorf("--install-extension left processes behind: %v", escaped)
	}
	out, _ := os.ReadFile(logPath)
	if waitErr != nil || !state.Success() || !bytes.Contains(out, []byte("was successfully installed")) {
		return fmt.Errorf("code-server --install-extension %s failed (%v, %v):\n%s", vsix, waitErr, state, out)
	}
	return nil
}

// waitProcess waits for cmd's process to exit on its own within d, without
// reaping it through cmd.Wait (stopGroup does that).
func waitProcess(cmd *exec.Cmd, d time.Duration) (*os.ProcessState, error) {
	type result struct {
		st  *os.ProcessState
		err error
	}
	ch := make(chan result, 1)
	go func() {
		st, err := cmd.Process.Wait()
		ch <- result{st, err}
	}()
	select {
	case r := <-ch:
		cmd.ProcessState = r.st
		return r.st, r.err
	case <-time.After(d):
		return nil, fmt.Errorf("still running after %v", d)
	}
}

var listeningRE = regexp.MustCompile(`HTTP server listening on (http://[0-9.:]+/)`)

// startCodeServer starts code-server on a free loopback port, serving folder,
// and stops its whole process tree when the test ends, failing the test if
// anything outlives that.
func startCodeServer(t *testing.T, env toolEnv, d codeServerDirs, logPath string, workspaceTrust bool) *codeServer {
	t.Helper()
	cs, err := launchCodeServer(env, d, logPath, workspaceTrust)
	if cs != nil {
		t.Cleanup(func() {
			if escaped := cs.Stop(); len(escaped) > 0 {
				t.Errorf("processes escaped code-server's process group and outlived it (killed now): %v", escaped)
			}
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// launchCodeServer starts code-server and waits until it is healthy. On an
// error after the start it also returns the server, for the caller to Stop;
// it is not tied to a test, so the shared code-server can outlive the test
// that starts it.
func launchCodeServer(env toolEnv, d codeServerDirs, logPath string, workspaceTrust bool) (*codeServer, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	ready := &lineWatcher{w: logf, re: listeningRE, found: make(chan string, 1)}
	cmd := exec.Command(env.Node, env.CodeServerEntry,
		// Port 0: the kernel picks a free port at bind time and code-server
		// logs it, which listeningRE reads. Picking a free port here and
		// passing it leaves a window in which a parallel run can take it
		// (EADDRINUSE seen with two suites on one machine).
		"--bind-addr", "127.0.0.1:0",
		"--auth", "none",
		"--disable-telemetry",
		"--disable-update-check",
		"--disable-getting-started-override",
		"--ignore-last-opened",
		"--disable-proxy",
		"--user-data-dir", d.userData,
		"--extensions-dir", d.extensions,
	)
	if !workspaceTrust {
		cmd.Args = append(cmd.Args, "--disable-workspace-trust")
	}
	cmd.Env = codeServerEnv(d)
	cmd.Stdout, cmd.Stderr = ready, ready
	mark := newMark()
	if err := startGroup(cmd, mark); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start code-server: %w", err)
	}
	cs := &codeServer{UserDataDir: d.userData, ExtensionsDir: d.extensions, LogPath: logPath,
		Mark: mark, PGID: cmd.Process.Pid}
	cs.stopFn = func() []procInfo {
		escaped := stopGroup(cmd, mark, settleTimeout, 10*time.Second)
		logf.Close()
		return escaped
	}

	select {
	case u := <-ready.found:
		cs.URL = u
	case <-time.After(60 * time.Second):
		out, _ := os.ReadFile(logPath)
		return cs, fmt.Errorf("code-server did not report listening within 60s; its log (%s):\n%s", logPath, out)
	}
	if err := cs.awaitHealthy(30 * time.Second); err != nil {
		return cs, err
	}
	return cs, nil
}

// awaitHealthy polls /healthz until it answers 200 or d passes.
func (c *codeServer) awaitHealthy(d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+"healthz", nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if ctx.Err() != nil {
			return fmt.Errorf("code-server at %s never became healthy: %v", c.URL, err)
		}
		time.Sleep(100 * time.Millisecond) // the listener is up; the first requests may race its routes
	}
}

// lineWatcher copies output to w and reports the first submatch of re seen
// in it. Safe for concurrent Write calls (exec may write stdout and stderr
// from two goroutines when they are different writers; here they share one).
type lineWatcher struct {
	mu    sync.Mutex
	w     *os.File
	re    *regexp.Regexp
	buf   []byte
	done  bool
	found chan string
}

func (l *lineWatcher) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if !l.done {
		l.buf = append(l.buf, p...)
		if m := l.re.FindSubmatch(l.buf); m != nil {
			l.done = true
			l.found <- string(m[1])
			l.buf = nil
		} else if i := bytes.LastIndexByte(l.buf, '\n'); i >= 0 {
			l.buf = l.buf[i+1:]
		}
	}
	return n, err
}
