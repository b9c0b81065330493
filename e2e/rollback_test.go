package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// rollbackLinks are the "Roll back to before this turn" links in the chat.
func rollbackLinks(wv playwright.FrameLocator) playwright.Locator {
	return wv.Locator(selUserMessage + " " + selRollback)
}

// rollBack clicks the link on the user message saying text, checks that
// the modal names what will change before anything changes, and confirms.
func (h *harness) rollBack(wv playwright.FrameLocator, text, scope string, files ...string) {
	h.t.Helper()
	link := wv.Locator(selUserMessage, playwright.FrameLocatorLocatorOptions{HasText: text}).Locator(selRollback)
	h.expectVisible(link, "the rollback link on "+text)
	if err := link.Click(); err != nil {
		h.t.Fatalf("click the rollback link: %v", err)
	}
	modal := h.modal()
	h.expectText(modal, "Roll back to before this turn?")
	h.expectText(modal, "This changes "+scope+".")
	for _, f := range files {
		h.expectText(modal, f)
	}
	h.clickModalButton("Restore")
}

// The rollback link after an editing turn: a chat-only turn offers none;
// the editing turn's link says what it will change, restores the file and
// puts a sentence for the user in the chat.
func TestScenarioRollbackLinkAfterEdit(t *testing.T) {
	rules := fixAddRules()
	rules.Rules = append(rules.Rules, modelRule{Match: "Hello", On: "user", Reply: modelReply{Text: "Hi there."}})
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: rules,
		Settings: map[string]any{"govibe.autoApprove.edits": true}})
	wv := h.openGoVibe()

	h.sendChat(wv, "Hello")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Hi there.")
	h.sendChat(wv, fixAddPrompt)
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Add is fixed now.")
	h.expectFile("calc.go", calcFixed)

	// Only the turn that changed something can be rolled back.
	if err := h.Expect.Locator(rollbackLinks(wv)).ToHaveCount(1); err != nil {
		t.Fatalf("want exactly one rollback link (on the editing turn): %v", err)
	}
	h.rollBack(wv, fixAddPrompt, "1 file", "modified: calc.go")

	h.waitFile("calc.go", "calc.go was not rolled back", func(c string, ok bool) bool { return ok && c == workspaceFiles["calc.go"] })
	want := "Restored 1 file to before “" + fixAddPrompt + "”"
	h.expectText(wv.Locator(selChatNotice).Last(), want)
	h.expectVisible(h.notification(want), "a notification reporting the rollback")
	if out := gitStatus(t, h.Workspace); out != "" {
		t.Fatalf("after rolling back, git still sees changes:\n%s", out)
	}
	// The rolled-back turn offers no rollback any more, nor after a reload.
	if err := h.Expect.Locator(rollbackLinks(wv)).ToHaveCount(0); err != nil {
		t.Fatalf("the rolled-back turn still offers its rollback: %v", err)
	}
	h.runCommand("Developer: Reload Window")
	wv = h.reopenedGoVibe()
	h.expectText(wv.Locator(selChatNotice).Last(), want)
	h.expectVisible(wv.Locator(selUserMessage, playwright.FrameLocatorLocatorOptions{HasText: fixAddPrompt}), "the rolled-back turn after the reload")
	if err := h.Expect.Locator(rollbackLinks(wv)).ToHaveCount(0); err != nil {
		t.Fatalf("after a reload the rolled-back turn offers its rollback again: %v", err)
	}
}

// The rollback link after a turn whose shell command created a file (and
// renamed one away): the rollback brings the renamed file back and removes
// the one the command created, since GoVibe's snapshots saw it appear.
func TestScenarioRollbackLinkAfterShellCommand(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "$ mv README.md README.txt", On: "tool", Reply: modelReply{Text: "Renamed."}},
		{Match: "Rename the readme", On: "user", Reply: shellCall("mv README.md README.txt")},
	}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "Rename the readme")
	card := shellCard(wv)
	h.expectVisible(card, "a confirmation card for mv")
	h.expectConfirmFits(wv, card, "mv-confirmation")
	if err := card.Locator(selConfirmAllow).Click(); err != nil {
		t.Fatal(err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Renamed.")
	if _, ok := h.readWorkspace("README.txt"); !ok {
		t.Fatal("the command did not create README.txt")
	}

	h.rollBack(wv, "Rename the readme", "2 files", "re-created: README.md", "deleted: README.txt")

	h.waitFile("README.md", "README.md was not brought back", func(c string, ok bool) bool { return ok && c == workspaceFiles["README.md"] })
	h.waitFile("README.txt", "README.txt, created by the command, was not removed", func(_ string, ok bool) bool { return !ok })
	h.expectText(wv.Locator(selChatNotice).Last(), "Restored 2 files to before “Rename the readme”")
	if out := gitStatus(t, h.Workspace); out != "" {
		t.Fatalf("after rolling back, git still sees changes:\n%s", out)
	}
}

// Multi-root: a turn edits a file in each folder of a .code-workspace; one
// rollback restores both folders and says so.
func TestScenarioRollbackMultiRoot(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, SecondFolder: true,
		Settings: map[string]any{"govibe.autoApprove.edits": true}, ModelRules: modelRules{Rules: []modelRule{}}})
	notes := filepath.Join(h.Workspace2, "notes.md")
	h.Model.SetScript(t, modelRules{Rules: []modelRule{
		{Match: "replaced lines 3–3", On: "tool", Reply: modelReply{Text: "Both folders updated."}},
		{Match: "Edited calc.go", On: "tool", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("read_file", map[string]any{"filePath": notes})}}},
		{Match: "Nothing here yet", On: "tool", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("edit", map[string]any{
			"filePath": notes, "startLine": 3, "endLine": 3, "newContent": "Add is fixed."})}}},
		{Match: "func Add", On: "tool", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("edit", map[string]any{
			"filePath": "calc.go", "startLine": 5, "endLine": 5, "newContent": "\treturn a + b"})}}},
		{Match: "both folders", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("read_file", map[string]any{"filePath": "calc.go"})}}},
	}})
	wv := h.openGoVibe()
	h.sendChat(wv, "Fix Add and note it, in both folders")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Both folders updated.")
	h.expectFile("calc.go", calcFixed)
	if b, _ := os.ReadFile(notes); !strings.Contains(string(b), "Add is fixed.") {
		t.Fatalf("notes.md was not edited: %q", b)
	}

	h.rollBack(wv, "both folders", "2 files in 2 folders", "calc.go", "notes.md")

	// The notice is written once every folder is restored: wait for it,
	// not for one folder's file, before looking at the disk.
	h.expectText(wv.Locator(selChatNotice).Last(), "Restored 2 files in 2 folders to before “Fix Add and note it, in both folders”")
	h.expectFile("calc.go", workspaceFiles["calc.go"])
	if b, _ := os.ReadFile(notes); string(b) != secondFolderFiles["notes.md"] {
		t.Fatalf("notes.md in the second folder was not rolled back: %q", b)
	}
}
