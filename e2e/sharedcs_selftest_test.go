package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// resetHome puts HOME back to what it held before the shared code-server's
// first window: what a test added goes (GoVibe's user-level files, a
// read-only module cache), what was there stays, code-server's own data
// dir stays even when it appeared later, and the git identity is written
// again.
func TestResetHomeRemovesWhatTestsAdded(t *testing.T) {
	home := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeGitconfig(home); err != nil {
		t.Fatal(err)
	}
	write(".config/code-server/config.yaml", "auth: none\n")
	keep := listTree(home)

	write(".config/govibe/allow-rules.json", "{}")
	write(".local/share/code-server/heartbeat", "")
	write("x/keep.txt", "victim")
	write("go/pkg/mod/m@v1/a.go", "package m")
	if err := os.Chmod(filepath.Join(home, "go", "pkg", "mod", "m@v1"), 0o555); err != nil {
		t.Fatal(err)
	}
	write(".gitconfig", "[user]\n\tname = Someone Else\n")

	removed, err := resetHome(home, keep)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(removed)
	if want := []string{filepath.Join(".config", "govibe"), "go", "x"}; !reflect.DeepEqual(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, rel := range []string{".config/code-server/config.yaml", ".local/share/code-server/heartbeat"} {
		if _, err := os.Stat(filepath.Join(home, filepath.FromSlash(rel))); err != nil {
			t.Errorf("%s was removed: %v", rel, err)
		}
	}
	for _, rel := range []string{".config/govibe", "x", "go"} {
		if _, err := os.Stat(filepath.Join(home, rel)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", rel, err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(home, ".gitconfig"))
	if want := "[user]\n\tname = GoVibe E2E\n\temail = e2e@example.com\n[init]\n\tdefaultBranch = main\n"; string(got) != want {
		t.Errorf(".gitconfig = %q, want the harness's identity", got)
	}
}

// recorder stands in for the test in release's self-test.
type recorder struct{ logs, errs []string }

func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// A shared lease's release is the per-test leak check: against real
// processes, a window's process still in code-server's group is stopped
// and logged, one that left the group (setsid) fails the test, both end,
// and the server's own processes (there when the lease began) stay.
func TestSharedLeaseReleaseStopsAndReportsTheWindowsProcesses(t *testing.T) {
	mark := newMark()
	server := exec.Command("sh", "-c", "sleep 303 & wait")
	if err := startGroup(server, mark); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopGroup(server, mark, 0, 5*time.Second) })
	cs := &codeServer{Mark: mark, PGID: server.Process.Pid}
	if !waitUntil(10*time.Second, func() bool { return len(serverProcesses(cs)) == 2 }) {
		t.Fatalf("want sh and its sleep, found %v", serverProcesses(cs))
	}
	l := &sharedLease{cs: cs, before: map[int]bool{}, settle: 300 * time.Millisecond}
	for _, p := range serverProcesses(cs) {
		l.before[p.pid] = true
	}
	// The "window": one process in the server's group, one in a session of
	// its own, both carrying the server's mark (as a window's processes do).
	window := exec.Command("sh", "-c", "setsid sleep 301 & exec sleep 302")
	window.Env = append(os.Environ(), markEnv+"="+mark)
	window.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: server.Process.Pid}
	if err := window.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = window.Wait() }()
	escapedUp := func() bool {
		for _, p := range serverProcesses(cs) {
			if p.cmdline == "sleep 301" && pgidOf(p.pid) != cs.PGID {
				return true
			}
		}
		return false
	}
	if !waitUntil(10*time.Second, escapedUp) {
		t.Fatalf("the window's setsid sleep did not start: %v", serverProcesses(cs))
	}

	r := &recorder{}
	sharedCS.lease.Lock() // release unlocks it
	l.release(r)

	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "sleep 301") || strings.Contains(r.errs[0], "sleep 302") {
		t.Errorf("want one failure naming the setsid sleep only, got %q", r.errs)
	}
	if logs := strings.Join(r.logs, "\n"); !strings.Contains(logs, "sleep 302") {
		t.Errorf("the window's process left in the group is not logged: %q", logs)
	}
	for _, p := range serverProcesses(cs) {
		if !l.before[p.pid] {
			t.Errorf("a window's process survived the release: %v", p)
		}
	}
	if got := len(serverProcesses(cs)); got != 2 {
		t.Errorf("the server's own processes did not stay: %v", serverProcesses(cs))
	}
}
