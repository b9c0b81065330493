package e2e

import (
	"fmt"
	"os"
	"syscall"
	"testing"
)

func TestMain(m *testing.M) {
	// Tagging this process's environment tags the Playwright driver, which is
	// how stopSharedBrowser finds stragglers. Each test's Chromium and the
	// processes the harness starts itself get their own mark instead.
	browserShared.mark = newMark()
	os.Setenv(markEnv, browserShared.mark)

	code := m.Run()

	// Before the browser: the shared code-server's windows are all closed.
	if err := stopSharedCodeServer(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		code = 1
	}
	if err := stopSharedBrowser(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		code = 1
	}
	stopSharedModelBuild()
	os.Exit(code)
}

func killPID(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
