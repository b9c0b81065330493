package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// twoTurnRules script two turns that each read then edit one file.
func twoTurnRules() modelRules {
	return modelRules{Rules: []modelRule{
		{Match: "Edited calc.go", On: "tool", Reply: modelReply{Text: "Turn one done."}},
		{Match: "Edited README.md", On: "tool", Reply: modelReply{Text: "Turn two done."}},
		{Match: "func Add", On: "tool", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("edit", map[string]any{
			"filePath": "calc.go", "startLine": 5, "endLine": 5, "newContent": "\treturn a + b"})}}},
		{Match: "A tiny calculator", On: "tool", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("edit", map[string]any{
			"filePath": "README.md", "startLine": 3, "endLine": 3, "newContent": "A tiny, correct calculator."})}}},
		{Match: "first change", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("read_file", map[string]any{"filePath": "calc.go"})}}},
		{Match: "second change", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("read_file", map[string]any{"filePath": "README.md"})}}},
	}}
}

// snapshotsPane is the GoVibe Snapshots view, in the Explorer (GoVibe's
// own container holds the chat alone, under one heading).
func (h *harness) snapshotsPane() playwright.Locator {
	return h.Page.Locator(selPane, playwright.PageLocatorOptions{
		Has: h.Page.Locator(selPaneHeader, playwright.PageLocatorOptions{HasText: "Snapshots"})})
}

// openSnapshotsView shows the Explorer and expands the Snapshots view,
// collapsed by default.
func (h *harness) openSnapshotsView() playwright.Locator {
	h.t.Helper()
	pane := h.snapshotsPane()
	header := pane.Locator(selPaneHeader)
	if vis, _ := header.IsVisible(); !vis {
		if err := h.Page.Locator(selExplorerActivity).First().Click(); err != nil {
			h.t.Fatalf("show the Explorer: %v", err)
		}
	}
	h.expectVisible(header, "the Snapshots view's header")
	if exp, _ := header.GetAttribute("aria-expanded"); exp != "true" {
		if err := header.Click(); err != nil {
			h.t.Fatalf("expand the Snapshots view: %v", err)
		}
	}
	if err := h.Expect.Locator(header).ToHaveAttribute("aria-expanded", "true"); err != nil {
		h.t.Fatalf("the Snapshots view did not expand: %v", err)
	}
	return pane
}

// Scenario 5: two turns edit two files; restoring turn 1's row from the
// Snapshots view (back to before turn 1) brings both back and keeps a file
// the user made (ignored by git, so never part of a snapshot).
func TestScenarioRestoreSnapshotBeforeFirstTurn(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: twoTurnRules(),
		Settings: map[string]any{"govibe.autoApprove.edits": true}})
	wv := h.openGoVibe()

	h.sendChat(wv, "Make the first change")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Turn one done.")
	h.expectFile("calc.go", calcFixed)

	// Between the turns the user keeps their own notes, excluded from git
	// locally: untracked, and never something a restore may delete.
	exclude := filepath.Join(h.Workspace, ".git", "info", "exclude")
	if err := os.MkdirAll(filepath.Dir(exclude), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exclude, []byte("scratch/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(h.Workspace, "scratch", "notes.txt")
	if err := os.MkdirAll(filepath.Dir(notes), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(notes, []byte("my own notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	h.sendChat(wv, "Make the second change")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Turn two done.")
	readme := strings.Replace(workspaceFiles["README.md"], "A tiny calculator used by the GoVibe end-to-end tests.", "A tiny, correct calculator.", 1)
	h.expectFile("README.md", readme)
	h.expectFile("calc.go", calcFixed)

	pane := h.openSnapshotsView()
	rows := pane.Locator(selListRow)
	session := rows.First()
	h.expectVisible(session, "the session in the Snapshots view")
	if exp, _ := session.GetAttribute("aria-expanded"); exp != "true" {
		if err := session.Click(); err != nil {
			t.Fatalf("expand the session in the Snapshots view: %v", err)
		}
	}
	// One row per turn; its accessible label is its tooltip, which starts
	// with the turn's message. The row says when and how many files the
	// turn changed ("… · 1 file"), not how many the first snapshot held.
	before := pane.Locator(selListRow + "[aria-level='2'][aria-label*='Make the first change']")
	if err := h.Expect.Locator(before).ToHaveCount(1); err != nil {
		labels, _ := rows.EvaluateAll(`rs => rs.map(r => r.getAttribute('aria-label'))`)
		t.Fatalf("no single row for turn 1 in the Snapshots view (rows: %v): %v", labels, err)
	}
	h.expectText(before, "1 file")
	if txt, _ := before.TextContent(); strings.Contains(txt, "files") {
		t.Fatalf("turn 1 changed one file, the row says %q", txt)
	}
	if err := before.Hover(); err != nil {
		t.Fatal(err)
	}
	restore := before.Locator(".action-label[aria-label^='Restore Workspace']")
	h.expectVisible(restore, "the Restore Workspace action on the snapshot")
	if err := restore.Click(); err != nil {
		t.Fatalf("click Restore Workspace: %v", err)
	}

	// The modal lists exactly what will change.
	modal := h.modal()
	h.expectText(modal, "Roll back to before this turn?")
	h.expectText(modal, "This changes 2 files.")
	h.expectText(modal, "calc.go")
	h.expectText(modal, "README.md")
	if txt, _ := modal.TextContent(); strings.Contains(txt, "notes.txt") {
		t.Fatalf("the restore would touch the user's ignored notes: %q", txt)
	}
	h.expectFile("calc.go", calcFixed) // nothing happens before the user confirms
	h.clickModalButton("Restore")

	h.waitFile("calc.go", "calc.go was not restored", func(c string, ok bool) bool { return ok && c == workspaceFiles["calc.go"] })
	h.expectFile("README.md", workspaceFiles["README.md"])
	if data, err := os.ReadFile(notes); err != nil || string(data) != "my own notes\n" {
		t.Fatalf("the user's untracked notes did not survive the restore: %v %q", err, data)
	}
	h.expectVisible(h.notification("Restored 2 files to before “Make the first change”"), "a notification reporting the restore")
	if out := gitStatus(t, h.Workspace); out != "" {
		t.Fatalf("after restoring the first snapshot git still sees changes:\n%s", out)
	}
}
