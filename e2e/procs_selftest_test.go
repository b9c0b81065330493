package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The harness's leak detection is what makes "no leftover processes" an
// assertion rather than a hope, so it is tested against real processes.

func TestStopGroupEndsWholeGroup(t *testing.T) {
	mark := newMark()
	cmd := exec.Command("sh", "-c", "sleep 300 & sleep 300 & wait")
	if err := startGroup(cmd, mark); err != nil {
		t.Fatal(err)
	}
	if !waitUntil(10*time.Second, func() bool { return len(markedProcesses(mark)) == 3 }) {
		t.Fatalf("want sh and two sleeps running, found %v", markedProcesses(mark))
	}
	if escaped := stopGroup(cmd, mark, 0, 5*time.Second); len(escaped) != 0 {
		t.Fatalf("nothing left the group, yet stopGroup reported %v", escaped)
	}
	if left := markedProcesses(mark); len(left) != 0 {
		t.Fatalf("processes survived stopGroup: %v", left)
	}
}

func TestStopGroupReportsAndKillsEscapedProcess(t *testing.T) {
	mark := newMark()
	// setsid puts the first sleep in a session and group of its own: killing
	// the group cannot reach it, only the mark can.
	cmd := exec.Command("sh", "-c", "setsid sleep 300 & sleep 300")
	if err := startGroup(cmd, mark); err != nil {
		t.Fatal(err)
	}
	// Three marked processes are not enough: the forked child shows up
	// before it has called setsid and exec'd sleep, and if the group is
	// killed in that window nothing escapes. Wait for the escape itself.
	detached := func() bool {
		procs := markedProcesses(mark)
		out := 0
		for _, p := range procs {
			if p.cmdline == "sleep 300" && pgidOf(p.pid) != cmd.Process.Pid {
				out++
			}
		}
		return len(procs) == 3 && out == 1
	}
	if !waitUntil(10*time.Second, detached) {
		t.Fatalf("want sh, a sleep in the group and a sleep in its own session, found %v", markedProcesses(mark))
	}
	escaped := stopGroup(cmd, mark, 200*time.Millisecond, 5*time.Second)
	if len(escaped) != 1 || escaped[0].cmdline != "sleep 300" {
		t.Fatalf("want exactly the setsid sleep reported, got %v", escaped)
	}
	if left := markedProcesses(mark); len(left) != 0 {
		t.Fatalf("escaped process was not killed: %v", left)
	}
}

// A browser that stops answering (here: its main process is stopped) is
// killed at the end of its grace period, the kill is reported in the test's
// artifacts, and none of its processes outlive the test.
func TestWedgedBrowserIsKilledAtItsGrace(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	env, err := loadToolEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	browser, mark := startBrowser(t, env)
	t.Cleanup(func() { // on an early failure
		for _, p := range markedProcesses(mark) {
			_ = killPID(p.pid)
		}
	})
	// The browser process is the one Chromium binary without a --type
	// (renderers, zygotes and the GPU process have one; crashpad is another binary).
	var main int
	for _, p := range markedProcesses(mark) {
		exe, _, _ := strings.Cut(p.cmdline, " ")
		if strings.HasSuffix(exe, "/chromium") && !strings.Contains(p.cmdline, "--type=") {
			main = p.pid
		}
	}
	if main == 0 {
		t.Fatalf("no main Chromium process among %v", markedProcesses(mark))
	}
	if err := syscall.Kill(main, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	closeBrowser(t, browser, mark, dir, 2*time.Second)
	report, err := os.ReadFile(filepath.Join(dir, "browser-close.txt"))
	if err != nil || !strings.Contains(string(report), "did not close within 2s") ||
		!strings.Contains(string(report), fmt.Sprintf("pid %d state T", main)) {
		t.Fatalf("the kill was not reported with the stopped process (%v):\n%s", err, report)
	}
	if left := markedProcesses(mark); len(left) != 0 {
		t.Fatalf("browser processes survived the kill: %v", left)
	}
}
