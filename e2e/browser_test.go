package e2e

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// chromiumArgs keep the browser from reaching the network on its own and from
// needing a sandbox or GPU, neither of which exists on CI machines. The last
// two let the long-session benchmark collect garbage and read the JS heap
// exactly (performance.memory is rounded otherwise).
var chromiumArgs = []string{
	"--no-sandbox", "--disable-gpu", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--no-first-run",
	"--js-flags=--expose-gc", "--enable-precise-memory-info",
}

// One Playwright driver and one Chromium serve the whole package; each test
// gets its own browser context, which isolates storage, cookies and pages.
// Starting them is guarded by once; they are stopped in TestMain after every
// test has finished, so no test sees them closed.
var browserShared struct {
	once    sync.Once
	pw      *playwright.Playwright
	browser playwright.Browser
	err     error
	mark    string
}

func sharedBrowser(t *testing.T, env toolEnv) playwright.Browser {
	t.Helper()
	browserShared.once.Do(func() {
		browserShared.pw, browserShared.err = playwright.Run(&playwright.RunOptions{
			DriverDirectory:     env.PlaywrightDriverDir,
			SkipInstallBrowsers: true,
			Verbose:             false,
			Stdout:              io.Discard,
			Stderr:              os.Stderr,
		})
		if browserShared.err != nil {
			browserShared.err = fmt.Errorf("start playwright driver in %s: %w (%s)", env.PlaywrightDriverDir, browserShared.err, setupHint)
			return
		}
		browserShared.browser, browserShared.err = browserShared.pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
			ExecutablePath: playwright.String(env.Chromium),
			Headless:       playwright.Bool(true),
			Args:           chromiumArgs,
			Timeout:        playwright.Float(60_000),
		})
		if browserShared.err != nil {
			browserShared.err = fmt.Errorf("launch %s: %w", env.Chromium, browserShared.err)
		}
	})
	if browserShared.err != nil {
		t.Fatal(browserShared.err)
	}
	return browserShared.browser
}

// stopSharedBrowser closes Chromium and the driver and reports any process
// that carried the suite's browser mark and outlived them.
func stopSharedBrowser() error {
	if browserShared.browser != nil {
		_ = browserShared.browser.Close()
	}
	if browserShared.pw != nil {
		_ = browserShared.pw.Stop()
	}
	if browserShared.mark == "" {
		return nil
	}
	if waitUntil(10*time.Second, func() bool { return len(markedProcesses(browserShared.mark)) == 0 }) {
		return nil
	}
	left := markedProcesses(browserShared.mark)
	for _, p := range left {
		_ = killPID(p.pid)
	}
	return fmt.Errorf("browser processes outlived the suite (killed now): %v", left)
}

// consoleLog records every console message and page error of a page and its
// frames, webviews included. Safe for concurrent use: Playwright delivers
// events on its own goroutine while the test reads.
type consoleLog struct {
	mu    sync.Mutex
	lines []string
}

func (c *consoleLog) add(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lines = append(c.lines, time.Now().Format("15:04:05.000 ")+fmt.Sprintf(format, args...))
}

func (c *consoleLog) snapshot() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.lines...)
}

func (c *consoleLog) contains(s string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range c.lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

func attachConsole(page playwright.Page, c *consoleLog) {
	page.OnConsole(func(m playwright.ConsoleMessage) {
		loc := ""
		if l := m.Location(); l != nil {
			loc = fmt.Sprintf(" (%s:%d)", l.URL, l.LineNumber)
		}
		c.add("console.%s %s%s", m.Type(), m.Text(), loc)
	})
	page.OnPageError(func(err error) { c.add("pageerror %v", err) })
	page.OnDialog(func(d playwright.Dialog) {
		c.add("dialog %s %q", d.Type(), d.Message())
		_ = d.Dismiss()
	})
}
