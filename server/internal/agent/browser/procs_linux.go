package browser

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// ProfileProcesses lists the live processes whose command line names the
// profile directory: Chromium and every helper it forked carry
// --user-data-dir=<profile>, so nothing of a run can hide from this.
func ProfileProcesses(profile string) []int {
	if profile == "" {
		return nil
	}
	needle := []byte("--user-data-dir=" + profile)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmd, needle) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if i := bytes.LastIndexByte(st, ')'); i > 0 && len(st) > i+2 && st[i+2] == 'Z' {
				continue // a zombie holds nothing; its parent reaps it
			}
		}
		out = append(out, pid)
	}
	return out
}

// killProfileProcesses waits up to grace for the browser to exit after a
// normal close, then kills what is left (a driver that died before closing
// Chromium would otherwise leave it running).
func killProfileProcesses(profile string, grace time.Duration) {
	deadline := time.Now().Add(grace)
	for len(ProfileProcesses(profile)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	for _, pid := range ProfileProcesses(profile) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
