package e2e

import (
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// Chat history belongs to the workspace, not to the window: two windows on
// one folder (each with its own extension host and sidecar) show the same
// chats, a chat started in one is listed in the other, and after a reload
// of each window the history is the same in both. Before, each window kept
// its chats in its own storage slot, and a reload could come back to an
// empty history.
func TestScenarioTwoWindowsShareHistory(t *testing.T) {
	// Its own code-server: it counts the sessions.db files of the whole
	// user-data dir, which the shared server's holds for every test.
	h := newHarness(t, harnessOptions{Extension: true, PrivateCodeServer: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "ping one", Reply: modelReply{Text: "pong one"}},
		{Match: "ping two", Reply: modelReply{Text: "pong two"}},
	}}})
	first := h.Page
	wvA := h.openGoVibe()
	h.sendChat(wvA, "ping one")
	h.expectText(wvA.Locator(selAssistantMessage).Last(), "pong one")

	// A second window on the same folder: its own browser context, so both
	// pages stay visible (a background tab gets no animation frames).
	second := h.openSecondWindow()
	var wvB playwright.FrameLocator
	h.onPage(second, func() {
		wvB = h.openGoVibe()
		// It opens on the newest chat: the one the first window made.
		h.expectTranscript(wvB, "ping one", "pong one")
	})
	if !waitUntil(actionTimeoutMS*time.Millisecond, func() bool { return len(h.sidecars()) == 2 }) {
		t.Fatalf("want one sidecar per window, found %v", h.sidecars())
	}

	// A chat started in the second window...
	h.onPage(second, func() {
		if err := wvB.Locator(selNewSession).Click(); err != nil {
			t.Fatalf("click New chat in the second window: %v", err)
		}
		h.sendChat(wvB, "ping two")
		h.expectTranscript(wvB, "ping two", "pong two")
		h.shot("second-window")
	})
	// ...is listed in the first one as soon as its history opens.
	h.expectHistory(wvA, "the first window", "first-window-history", "ping two", "ping one")

	// A reload of each window comes back to the same history.
	for _, w := range []struct {
		name string
		page playwright.Page
	}{{"the first window", first}, {"the second window", second}} {
		h.onPage(w.page, func() {
			h.runCommand("Developer: Reload Window")
			if err := h.Expect.Locator(h.Page.Locator(selWorkbench)).ToBeVisible(); err != nil {
				t.Fatalf("%s did not come back after the reload: %v", w.name, err)
			}
			wv := h.reopenedGoVibe()
			h.awaitServerReady(wv)
			h.expectHistory(wv, w.name+" after its reload", "", "ping two", "ping one")
			h.pickSession(wv, "ping one")
			h.expectTranscript(wv, "ping one", "pong one")
			h.shot("after-reload-" + strings.ReplaceAll(strings.TrimPrefix(w.name, "the "), " ", "-"))
		})
	}

	// One database for the workspace, under global storage; none in the
	// windows' storage slots.
	var dbs []string
	_ = filepath.WalkDir(h.Dirs.userData, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "sessions.db" {
			dbs = append(dbs, p)
		}
		return nil
	})
	if len(dbs) != 1 || !strings.Contains(filepath.ToSlash(dbs[0]), "/globalStorage/") || !strings.Contains(filepath.ToSlash(dbs[0]), "/workspaces/") {
		t.Fatalf("want one sessions.db under globalStorage/…/workspaces/, found %v", dbs)
	}
}

// openSecondWindow opens the harness's folder in another browser context:
// code-server gives it its own extension host, and so its own sidecar.
func (h *harness) openSecondWindow() playwright.Page {
	h.t.Helper()
	bctx, err := h.Browser.NewContext(playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1400, Height: 900}})
	if err != nil {
		h.t.Fatalf("second browser context: %v", err)
	}
	bctx.SetDefaultTimeout(actionTimeoutMS)
	h.t.Cleanup(func() { _ = bctx.Close() })
	page, err := bctx.NewPage()
	if err != nil {
		h.t.Fatalf("second page: %v", err)
	}
	attachConsole(page, h.Console)
	target := h.CS.URL + "?folder=" + url.QueryEscape(h.Workspace)
	if _, err := page.Goto(target, playwright.PageGotoOptions{
		WaitUntil: playwright.WaitUntilStateDomcontentloaded, Timeout: playwright.Float(startupTimeout)}); err != nil {
		h.t.Fatalf("open %s in a second window: %v", target, err)
	}
	if err := h.Expect.Locator(page.Locator(selWorkbench)).ToBeVisible(
		playwright.LocatorAssertionsToBeVisibleOptions{Timeout: playwright.Float(startupTimeout)}); err != nil {
		h.t.Fatalf("the second window's workbench did not render: %v", err)
	}
	return page
}

// onPage runs fn with the harness driving page (the helpers use h.Page).
func (h *harness) onPage(page playwright.Page, fn func()) {
	prev := h.Page
	h.Page = page
	defer func() { h.Page = prev }()
	fn()
}

// expectHistory opens the history dropdown and checks it lists exactly
// these chats, newest first, photographs it (shot, unless empty) and
// closes it.
func (h *harness) expectHistory(wv playwright.FrameLocator, where, shot string, titles ...string) {
	h.t.Helper()
	items := h.openSessionList(wv)
	if err := h.Expect.Locator(items).ToHaveCount(len(titles)); err != nil {
		h.t.Fatalf("%s's history does not list %d chats: %v", where, len(titles), err)
	}
	for i, title := range titles {
		h.expectText(items.Nth(i), title)
	}
	if shot != "" {
		h.shot(shot)
	}
	if err := wv.Locator(selSessionMenu).Click(); err != nil {
		h.t.Fatalf("close the history dropdown: %v", err)
	}
	if err := h.Expect.Locator(wv.Locator(selSessionList)).ToBeHidden(); err != nil {
		h.t.Fatalf("the history dropdown stayed open: %v", err)
	}
}
