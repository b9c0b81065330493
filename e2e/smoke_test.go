package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// TestWorkbenchOpensWorkspace proves the harness itself: code-server serves
// the test's workspace with the test's user-data dir and settings, and
// Chromium renders the workbench with the workspace's files in the explorer.
func TestWorkbenchOpensWorkspace(t *testing.T) {
	h := newHarness(t, harnessOptions{})

	explorer := h.Page.Locator(selExplorerRow, playwright.PageLocatorOptions{HasText: "calc_test.go"})
	if err := h.Expect.Locator(explorer).ToBeVisible(); err != nil {
		t.Fatalf("explorer does not list the workspace's calc_test.go: %v", err)
	}
	// Without the harness's settings.json the welcome page would open as the
	// startup editor.
	if err := h.Expect.Locator(h.Page.Locator(".editor-group-container .tab")).ToHaveCount(0); err != nil {
		t.Fatalf("an editor was opened at startup although workbench.startupEditor is none: %v", err)
	}
	if _, err := os.Stat(filepath.Join(h.Dirs.userData, "logs")); err != nil {
		t.Fatalf("code-server did not use the test's user-data dir: %v", err)
	}
}

// TestTeardownLeavesNoProcess checks the harness's teardown against a real
// process tree: with the workbench open, code-server runs an extension host
// and helpers; stopping it must end every process that carried its mark.
func TestTeardownLeavesNoProcess(t *testing.T) {
	h := newHarness(t, harnessOptions{})

	// The extension host is started for the window; waiting for it makes
	// the tree more than the one process started by the harness.
	if !waitUntil(startupTimeout*time.Millisecond, func() bool { return len(markedProcesses(h.CS.Mark)) >= 2 }) {
		t.Fatalf("expected code-server and its extension host, found %v", markedProcesses(h.CS.Mark))
	}
	before := markedProcesses(h.CS.Mark)
	if escaped := h.CS.Stop(); len(escaped) > 0 {
		t.Fatalf("processes escaped code-server's group: %v", escaped)
	}
	for _, p := range before {
		if now := readProc(p.pid); now.state != "" && now.state != "Z" && now.cmdline == p.cmdline {
			t.Errorf("process survived teardown: %v", now)
		}
	}
	if left := groupProcesses(h.CS.PGID); len(left) > 0 {
		t.Errorf("process group %d still has members: %v", h.CS.PGID, left)
	}
}
