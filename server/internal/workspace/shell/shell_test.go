//go:build !windows

package shell

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func run(t *testing.T, ctx context.Context, spec Spec) Result {
	t.Helper()
	if spec.Cwd == "" {
		spec.Cwd = t.TempDir()
	}
	res, err := Run(ctx, spec)
	if err != nil {
		t.Fatalf("Run(%q): %v", spec.Command, err)
	}
	return res
}

func TestRunBasics(t *testing.T) {
	dir := t.TempDir()
	res := run(t, context.Background(), Spec{Command: "pwd; echo out; echo err >&2; exit 3", Cwd: dir})
	if res.ExitCode != 3 {
		t.Fatalf("exit code %d", res.ExitCode)
	}
	if !strings.Contains(res.Stdout, dir) || !strings.Contains(res.Stdout, "out") || strings.TrimSpace(res.Stderr) != "err" {
		t.Fatalf("stdout %q stderr %q", res.Stdout, res.Stderr)
	}
	if res.Command == "" || res.Cwd != dir || res.Truncated || res.TimedOut {
		t.Fatalf("bad result %+v", res)
	}
}

func TestStdinClosed(t *testing.T) {
	start := time.Now()
	res := run(t, context.Background(), Spec{Command: "cat; echo done", Timeout: 5 * time.Second})
	if res.ExitCode != 0 || strings.TrimSpace(res.Stdout) != "done" || time.Since(start) > 3*time.Second {
		t.Fatalf("cat should see EOF at once: %+v", res)
	}
}

func TestMissingCwd(t *testing.T) {
	if _, err := Run(context.Background(), Spec{Command: "true", Cwd: "/nonexistent/dir"}); err == nil {
		t.Fatal("missing cwd must be an error")
	}
}

// pidsGone waits until every pid is dead (or a zombie awaiting its reaper).
func pidsGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for _, pid := range pids {
		for {
			err := syscall.Kill(pid, 0)
			if err == syscall.ESRCH || isZombie(pid) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("pid %d still alive after the command ended", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func isZombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func parsePids(t *testing.T, out string) []int {
	var pids []int
	for _, f := range strings.Fields(out) {
		n, err := strconv.Atoi(f)
		if err == nil {
			pids = append(pids, n)
		}
	}
	if len(pids) < 2 {
		t.Fatalf("expected pids in %q", out)
	}
	return pids
}

const spawner = "sleep 100 & echo $!; sleep 100 & echo $!; (sleep 100; echo never) & echo $!; wait"

func TestTimeoutKillsGrandchildren(t *testing.T) {
	start := time.Now()
	res := run(t, context.Background(), Spec{Command: spawner, Timeout: 300 * time.Millisecond})
	if !res.TimedOut || res.ExitCode == 0 {
		t.Fatalf("want timeout, got %+v", res)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("Run took %v after a 300ms timeout", time.Since(start))
	}
	pidsGone(t, parsePids(t, res.Stdout))
}

func TestCancelKillsGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	res := run(t, ctx, Spec{Command: spawner, Timeout: time.Minute})
	if !res.Canceled || res.TimedOut {
		t.Fatalf("want canceled, got %+v", res)
	}
	pidsGone(t, parsePids(t, res.Stdout))
}

func TestBackgroundChildDoesNotBlockOrSurvive(t *testing.T) {
	start := time.Now()
	res := run(t, context.Background(), Spec{Command: "sleep 100 & echo $!; sleep 100 & echo $!; echo bye", Timeout: time.Minute})
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, "bye") {
		t.Fatalf("got %+v", res)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("background children kept Run waiting %v", d)
	}
	pidsGone(t, parsePids(t, res.Stdout))
}

func TestTruncationKeepsHeadAndTail(t *testing.T) {
	res := run(t, context.Background(), Spec{Command: "echo FIRSTLINE; seq 1 200000; echo LASTLINE", MaxOutput: 30000})
	if !res.Truncated {
		t.Fatal("want truncated")
	}
	if !strings.HasPrefix(res.Stdout, "FIRSTLINE") || !strings.HasSuffix(strings.TrimSpace(res.Stdout), "LASTLINE") {
		t.Fatalf("head/tail lost: %q ... %q", res.Stdout[:40], res.Stdout[len(res.Stdout)-40:])
	}
	if !strings.Contains(res.Stdout, "bytes omitted") {
		t.Fatal("no omission marker")
	}
	if n := len([]rune(res.Stdout)) + len([]rune(res.Stderr)); n > 30100 {
		t.Fatalf("output %d chars exceeds cap", n)
	}
}

func TestTruncationSplitsBudgetBetweenStreams(t *testing.T) {
	res := run(t, context.Background(), Spec{Command: "seq 1 100000; seq 1 100000 >&2", MaxOutput: 3000})
	if !res.Truncated || len(res.Stdout)+len(res.Stderr) > 3200 || len(res.Stderr) == 0 || len(res.Stdout) == 0 {
		t.Fatalf("stdout %d stderr %d truncated %v", len(res.Stdout), len(res.Stderr), res.Truncated)
	}
}

func TestEnvScrubbed(t *testing.T) {
	secrets := map[string]string{
		"OPENAI_API_KEY": "sk-1", "MY_SERVICE_TOKEN": "t", "APP_SECRET": "s", "DB_PASSWORD": "p",
		"GOVIBE_API_KEY": "g", "GITHUB_TOKEN": "gh", "mysql_password_file": "x",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("HARMLESS_SETTING", "withheld")
	t.Setenv("GOCACHE", "/tmp/gocache-kept")
	res := run(t, context.Background(), Spec{Command: "env", Env: []string{"EXTRA=1"}})
	for k := range secrets {
		if strings.Contains(res.Stdout, k+"=") {
			t.Errorf("%s leaked into the command environment", k)
		}
	}
	if strings.Contains(res.Stdout, "HARMLESS_SETTING") {
		t.Fatal("a variable outside the allowlist reached the command")
	}
	if !strings.Contains(res.Stdout, "GOCACHE=/tmp/gocache-kept") || !strings.Contains(res.Stdout, "EXTRA=1") || !strings.Contains(res.Stdout, "PATH=") {
		t.Fatal("allowlisted variables and the spec's own must be kept")
	}
}

func TestKeyErrors(t *testing.T) {
	out := "ok line\n./main.go:3:2: undefined: foo\n--- FAIL: TestX (0.00s)\nFAIL\tpkg\t0.1s\npanic: boom\nTraceback (most recent call last):\nerror: linker failed\nfine\nerror: linker failed\n"
	got := KeyErrors(out)
	want := []string{"./main.go:3:2: undefined: foo", "--- FAIL: TestX (0.00s)", "FAIL\tpkg\t0.1s", "panic: boom", "Traceback (most recent call last):", "error: linker failed"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q", got)
	}
	res := run(t, context.Background(), Spec{Command: "echo 'error: bad thing' >&2; exit 1"})
	if len(res.KeyErrors) != 1 || res.KeyErrors[0] != "error: bad thing" {
		t.Fatalf("keyErrors %q", res.KeyErrors)
	}
}

func TestParallelRuns(t *testing.T) {
	done := make(chan Result, 8)
	for i := range 8 {
		go func() {
			r, _ := Run(context.Background(), Spec{Command: "echo " + strconv.Itoa(i), Cwd: os.TempDir()})
			done <- r
		}()
	}
	seen := map[string]bool{}
	for range 8 {
		seen[strings.TrimSpace((<-done).Stdout)] = true
	}
	if len(seen) != 8 {
		t.Fatalf("outputs mixed up: %v", seen)
	}
}
