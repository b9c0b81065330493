package e2e

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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

// One Playwright driver serves the whole package; each test launches its own
// Chromium, tagged with its own mark. A browser shared by the suite once
// wedged: disposing one test's browser context never returned (Chromium did
// not answer Target.disposeBrowserContext), and that held the suite until its
// timeout. With a browser per test, the end of a test does not depend on
// Chromium tearing a context down: the test's browser is closed, and if it
// does not close in time it is killed by its mark, which also proves that no
// browser process outlives its test. The driver is started once (guarded by
// once) and stopped in TestMain after every test has finished.
var browserShared struct {
	once sync.Once
	pw   *playwright.Playwright
	err  error
	mark string // the driver's mark (TestMain's environment)
}

// browserCloseGrace bounds a graceful browser close. Closing takes well under a
// second on a quiet machine and a few seconds under load.
const browserCloseGrace = 30 * time.Second

func playwrightDriver(t *testing.T, env toolEnv) *playwright.Playwright {
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
		}
	})
	if browserShared.err != nil {
		t.Fatal(browserShared.err)
	}
	return browserShared.pw
}

// launchBrowser starts this test's Chromium and registers its end: a graceful
// close bounded by browserCloseGrace, then SIGKILL to every process carrying
// the test's mark. A close that needed the kill is written to the test's
// artifacts with each browser process's state and CPU time (a renderer that
// spent the grace period on the CPU points at a busy page, one that sat idle
// at Chromium), and logged; the test's own assertions have all run by then.
func launchBrowser(t *testing.T, env toolEnv, artifacts string) playwright.Browser {
	t.Helper()
	browser, mark := startBrowser(t, env)
	t.Cleanup(func() { closeBrowser(t, browser, mark, artifacts, browserCloseGrace) })
	return browser
}

// startBrowser launches a Chromium tagged with a mark of its own; the caller
// ends it with closeBrowser.
func startBrowser(t *testing.T, env toolEnv) (playwright.Browser, string) {
	t.Helper()
	pw := playwrightDriver(t, env)
	mark := newMark()
	browser, err := pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
		ExecutablePath: playwright.String(env.Chromium),
		Headless:       playwright.Bool(true),
		Args:           chromiumArgs,
		Env:            browserEnv(mark),
		Timeout:        playwright.Float(60_000),
	})
	if err != nil {
		t.Fatalf("launch %s: %v", env.Chromium, err)
	}
	return browser, mark
}

// browserEnv is this process's environment with the test's mark in place of
// the suite's, so the test's Chromium can be told apart from the driver.
func browserEnv(mark string) map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	env[markEnv] = mark
	return env
}

func closeBrowser(t *testing.T, browser playwright.Browser, mark, artifacts string, grace time.Duration) {
	done := make(chan struct{})
	go func() { _ = browser.Close(); close(done) }()
	what := fmt.Sprintf("the test's Chromium did not close within %s", grace)
	select {
	case <-done:
		if waitUntil(10*time.Second, func() bool { return len(markedProcesses(mark)) == 0 }) {
			return
		}
		what = "processes of the test's Chromium outlived its close"
	case <-time.After(grace):
	}
	left := markedProcesses(mark)
	var report strings.Builder
	fmt.Fprintf(&report, "%s; killed:\n", what)
	for _, p := range left {
		fmt.Fprintf(&report, "pid %d state %s cpu %s  %s\n", p.pid, p.state, cpuTime(p.pid), p.cmdline)
		_ = killPID(p.pid)
	}
	_ = os.WriteFile(filepath.Join(artifacts, "browser-close.txt"), []byte(report.String()), 0o644)
	t.Logf("harness: %s(written to %s)", report.String(), filepath.Join(artifacts, "browser-close.txt"))
	<-done
}

// stopSharedBrowser stops the driver and reports any process that carried the
// suite's mark and outlived it.
func stopSharedBrowser() error {
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
	// Frames coming and going say when a webview was replaced: a view's
	// state (what was typed, where it was scrolled) lives in its frame.
	page.OnFrameAttached(func(f playwright.Frame) { c.add("frame attached %s", shortURL(f.URL())) })
	page.OnFrameNavigated(func(f playwright.Frame) { c.add("frame navigated %s", shortURL(f.URL())) })
	page.OnFrameDetached(func(f playwright.Frame) { c.add("frame detached %s", shortURL(f.URL())) })
}

// shortURL keeps a frame's URL readable in the log: webview URLs carry
// long query strings.
func shortURL(u string) string {
	if len(u) > 160 {
		return u[:160] + "…"
	}
	return u
}
