package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"
)

// editorTab is the editor tab whose label contains title.
func (h *harness) editorTab(title string) playwright.Locator {
	return h.Page.Locator(selEditorTab, playwright.PageLocatorOptions{HasText: title})
}

// diffSide is the left ("original") or right ("modified") editor of the
// diff editor shown in the active editor group.
func (h *harness) diffSide(side string) playwright.Locator {
	return h.Page.Locator(selActiveGroup + " " + selDiffEditor + " .editor." + side)
}

// expectEditorText waits until the rendered lines of a Monaco editor contain
// text. Monaco renders spaces as no-break spaces, so both are compared with
// ordinary spaces.
func (h *harness) expectEditorText(editor playwright.Locator, text string, what string) {
	h.t.Helper()
	lines := editor.Locator(selViewLines)
	var last string
	if !waitUntil(actionTimeoutMS*time.Millisecond, func() bool {
		s, err := lines.TextContent(playwright.LocatorTextContentOptions{Timeout: playwright.Float(2000)})
		if err != nil {
			return false
		}
		last = strings.ReplaceAll(s, "\u00a0", " ")
		return strings.Contains(last, text)
	}) {
		h.t.Fatalf("%s does not show %q; it shows %q", what, text, last)
	}
}

// clickEditorAction clicks a button of the active editor's title bar by its
// accessible label (the command's title, possibly followed by its keybinding).
func (h *harness) clickEditorAction(title string) {
	h.t.Helper()
	btn := h.Page.Locator(selActiveGroup + " " + selEditorActions + " .action-label[aria-label^='" + title + "']").First()
	if err := h.Expect.Locator(btn).ToBeVisible(); err != nil {
		h.t.Fatalf("editor title button %q not shown: %v", title, err)
	}
	if err := btn.Click(); err != nil {
		h.t.Fatalf("click editor title button %q: %v", title, err)
	}
}

// modal is the workbench's modal dialog (showWarningMessage with modal: true).
func (h *harness) modal() playwright.Locator {
	return h.Page.Locator(selDialog)
}

// clickModalButton presses the button labelled label in the open modal.
func (h *harness) clickModalButton(label string) {
	h.t.Helper()
	btn := h.modal().Locator(selDialogButton, playwright.LocatorLocatorOptions{HasText: label}).First()
	if err := h.Expect.Locator(btn).ToBeVisible(); err != nil {
		h.t.Fatalf("modal has no %q button: %v", label, err)
	}
	if err := btn.Click(); err != nil {
		h.t.Fatalf("click %q in the modal: %v", label, err)
	}
	if err := h.Expect.Locator(h.modal()).ToBeHidden(); err != nil {
		h.t.Fatalf("modal stayed open after %q: %v", label, err)
	}
}

// notification is a toast in the workbench's notification area whose
// message contains text.
func (h *harness) notification(text string) playwright.Locator {
	return h.Page.Locator(selNotification, playwright.PageLocatorOptions{HasText: text})
}

// readWorkspace returns a workspace file's content, or "" with ok=false when
// it does not exist.
func (h *harness) readWorkspace(rel string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(h.Workspace, rel))
	if err != nil {
		return "", false
	}
	return string(data), true
}

// waitFile waits until the workspace file rel satisfies cond. Nothing tells
// the test when the product writes a file, so it polls the disk.
func (h *harness) waitFile(rel string, what string, cond func(content string, exists bool) bool) {
	h.t.Helper()
	var last string
	var exists bool
	if !waitUntil(actionTimeoutMS*time.Millisecond, func() bool {
		last, exists = h.readWorkspace(rel)
		return cond(last, exists)
	}) {
		h.t.Fatalf("%s: %s on disk (exists=%v) is:\n%s", what, rel, exists, last)
	}
}

// expectFile asserts a workspace file's exact content now.
func (h *harness) expectFile(rel, want string) {
	h.t.Helper()
	got, ok := h.readWorkspace(rel)
	if !ok {
		h.t.Fatalf("%s does not exist; want:\n%s", rel, want)
	}
	if got != want {
		h.t.Fatalf("%s on disk is:\n%s\nwant:\n%s", rel, got, want)
	}
}
