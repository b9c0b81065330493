package e2e

import (
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/playwright-community/playwright-go"
)

// webview reaches into the GoVibe view's HTML.
func (h *harness) webview() playwright.FrameLocator {
	return h.Page.FrameLocator(selWebviewHost).FrameLocator(selWebviewInner)
}

// openGoVibe shows the GoVibe view from the activity bar and waits until its
// chat input is usable.
func (h *harness) openGoVibe() playwright.FrameLocator {
	h.t.Helper()
	activity := h.Page.Locator(selGoVibeActivity).First()
	if err := h.Expect.Locator(activity).ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{
		Timeout: playwright.Float(startupTimeout)}); err != nil {
		h.t.Fatalf("GoVibe activity-bar item %s never appeared (is the extension installed and activated?): %v", selGoVibeActivity, err)
	}
	if err := activity.Click(); err != nil {
		h.t.Fatalf("click GoVibe activity: %v", err)
	}
	wv := h.webview()
	if err := h.Expect.Locator(wv.Locator(selChatInput)).ToBeEditable(playwright.LocatorAssertionsToBeEditableOptions{
		Timeout: playwright.Float(startupTimeout)}); err != nil {
		h.t.Fatalf("GoVibe chat input %s not editable: %v", selChatInput, err)
	}
	h.awaitServerReady(wv)
	return wv
}

// awaitServerReady waits for the event that ends start-up: the webview's
// "Starting the GoVibe server…" banner goes away when the sidecar is
// ready and the host has sent the session. Typing before that races the
// host's start-up snapshot instead of testing the scenario.
func (h *harness) awaitServerReady(wv playwright.FrameLocator) {
	h.t.Helper()
	if err := h.Expect.Locator(wv.Locator(selServerBanner)).ToBeHidden(playwright.LocatorAssertionsToBeHiddenOptions{
		Timeout: playwright.Float(startupTimeout)}); err != nil {
		txt, _ := wv.Locator(selServerBanner).First().TextContent()
		h.t.Fatalf("the GoVibe server did not become ready (banner %q): %v", txt, err)
	}
}

// reopenedGoVibe waits for the GoVibe view a reload brings back: the
// workbench restores the side bar as it was, and clicking the activity-bar
// item of a shown container would hide it instead.
func (h *harness) reopenedGoVibe() playwright.FrameLocator {
	h.t.Helper()
	title := h.Page.Locator(selSideBarTitle, playwright.PageLocatorOptions{HasText: "GoVibe"})
	if err := h.Expect.Locator(title).ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{
		Timeout: playwright.Float(startupTimeout)}); err != nil {
		h.t.Fatalf("the side bar did not come back showing GoVibe: %v", err)
	}
	wv := h.webview()
	if err := h.Expect.Locator(wv.Locator(selChatInput)).ToBeEditable(playwright.LocatorAssertionsToBeEditableOptions{
		Timeout: playwright.Float(startupTimeout)}); err != nil {
		h.t.Fatalf("GoVibe chat input %s not editable: %v", selChatInput, err)
	}
	return wv
}

// runCommand runs a workbench command by its title through the command
// palette, as a user would.
func (h *harness) runCommand(title string) {
	h.t.Helper()
	// Focus the workbench first: F1 typed into a webview stays in the webview.
	if err := h.Page.Locator(".monaco-workbench .part.statusbar").Click(); err != nil {
		h.t.Fatalf("focus workbench: %v", err)
	}
	if err := h.Page.Keyboard().Press("F1"); err != nil {
		h.t.Fatal(err)
	}
	input := h.Page.Locator(selQuickInputBox)
	if err := h.Expect.Locator(input).ToBeVisible(); err != nil {
		h.t.Fatalf("command palette did not open: %v", err)
	}
	if err := input.Fill(">" + title); err != nil {
		h.t.Fatal(err)
	}
	row := h.Page.Locator(selQuickInputRow, playwright.PageLocatorOptions{HasText: title}).First()
	if err := h.Expect.Locator(row).ToBeVisible(); err != nil {
		h.t.Fatalf("command %q not in the palette: %v", title, err)
	}
	if err := row.Click(); err != nil {
		h.t.Fatalf("run command %q: %v", title, err)
	}
}

// quickInputAnswer types text into the open quick input (an input box such
// as the API-key prompt) and submits it.
func (h *harness) quickInputAnswer(text string) {
	h.t.Helper()
	input := h.Page.Locator(selQuickInputBox)
	if err := h.Expect.Locator(input).ToBeVisible(); err != nil {
		h.t.Fatalf("no input box is open: %v", err)
	}
	if err := input.Fill(text); err != nil {
		h.t.Fatal(err)
	}
	if err := input.Press("Enter"); err != nil {
		h.t.Fatal(err)
	}
	if err := h.Expect.Locator(h.Page.Locator(selQuickInput)).ToBeHidden(); err != nil {
		h.t.Fatalf("input box did not close after Enter: %v", err)
	}
}

func httpGet(u string) ([]byte, error) {
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return body, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return body, nil
}
