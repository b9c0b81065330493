package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// GoVibe webview: the chat input's completion, chips and skills picker.
const (
	selCommandCompletion = "[data-testid=command-completion]"
	selMentionCompletion = "[data-testid=mention-completion]"
	selCompletionItem    = "[data-testid=completion-item]"
	selMentionChip       = "[data-testid=mention-chip]"
	selAttachmentChip    = "[data-testid=attachment-chip]"
	selSkillsButton      = "[data-testid=skills-button]"
	selSkillsPicker      = "[data-testid=skills-picker]"
	selActiveSkill       = "[data-testid=active-skill]"
)

// The chat input at the default sidebar width: typing "/" lists the
// commands (a project's custom one with its description among the
// built-ins), Enter picks one and a second Enter runs it, and the model
// gets its expanded prompt; "@cal" offers workspace files, a pick becomes a
// chip, and the model's request holds the file's content; the skills
// picker activates a skill that the next request names. Every popup is
// checked to lie inside the visible view; attachments and the active skill
// survive a window reload.
func TestScenarioComposerCommandsMentionsAndSkills(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "EXPLAIN-MARKER", Reply: modelReply{Text: "Explained simply."}},
		{Match: "Summarise", Reply: modelReply{Text: "Summarised the file."}},
		{Match: "review the change", Reply: modelReply{Text: "Reviewed with the skill."}},
	}}})
	cmd := filepath.Join(h.Workspace, ".govibe", "commands", "explain.md")
	if err := os.MkdirAll(filepath.Dir(cmd), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cmd, []byte("---\ndescription: Explain a file in plain words\nargument-hint: <file>\n---\nExplain EXPLAIN-MARKER $ARGUMENTS in plain words.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wv := h.openGoVibe()
	input := wv.Locator(selChatInput)

	// Slash autocomplete.
	if err := input.Click(); err != nil {
		t.Fatal(err)
	}
	if err := input.PressSequentially("/expl"); err != nil {
		t.Fatal(err)
	}
	list := wv.Locator(selCommandCompletion)
	h.expectText(list, "Explain a file in plain words")
	h.expectInView(list, "the command list")
	first := list.Locator(selCompletionItem).First()
	h.expectText(first, "/explain <file>")
	h.expectInView(first, "the first command")
	h.shot("slash-autocomplete")
	if err := input.Press("Enter"); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(input).ToHaveValue("/explain "); err != nil {
		t.Fatalf("Enter did not pick the command: %v", err)
	}
	if err := h.Expect.Locator(list).ToBeHidden(); err != nil {
		t.Fatalf("the list stayed open after the pick: %v", err)
	}
	if err := input.PressSequentially("calc.go"); err != nil {
		t.Fatal(err)
	}
	if err := input.Press("Enter"); err != nil {
		t.Fatal(err)
	}
	h.expectNewestInView(wv, "Explained simply.")
	if u := lastChatRequest(t, h).lastUserText(); !strings.Contains(u, "Explain EXPLAIN-MARKER calc.go in plain words.") {
		t.Fatalf("the custom command's prompt did not reach the model:\n%s", u)
	}

	// @mention autocomplete and chip.
	if err := input.PressSequentially("Summarise @calc"); err != nil {
		t.Fatal(err)
	}
	mentions := wv.Locator(selMentionCompletion)
	item := mentions.Locator(selCompletionItem + "[data-insert='calc.go']")
	h.expectVisible(item, "calc.go among the mention candidates")
	h.expectInView(mentions, "the mention list")
	h.shot("mention-autocomplete")
	if err := item.Click(); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(input).ToHaveValue("Summarise @calc.go "); err != nil {
		t.Fatalf("the pick did not complete the mention: %v", err)
	}
	chip := wv.Locator(selMentionChip + "[data-kind=file]")
	h.expectText(chip, "calc.go")
	h.expectInView(chip, "the mention chip")
	h.expectInView(input, "the chat input below the chips")
	h.shot("mention-chip")
	if err := input.Press("Enter"); err != nil {
		t.Fatal(err)
	}
	h.expectNewestInView(wv, "Summarised the file.")
	if u := lastChatRequest(t, h).lastUserText(); !strings.Contains(u, "<attachment mention=\"@calc.go\"") || !strings.Contains(u, "func Add(a, b int) int") {
		t.Fatalf("the mentioned file's content is not in the model's request:\n%s", u)
	}
	att := wv.Locator(selAttachmentChip + "[data-kind=file]").Last()
	h.expectText(att, "calc.go")
	h.expectInView(att, "the attachment on the sent message")

	// Skills picker.
	btn := wv.Locator(selSkillsButton)
	h.expectInView(btn, "the skills button")
	if err := btn.Click(); err != nil {
		t.Fatal(err)
	}
	picker := wv.Locator(selSkillsPicker)
	row := picker.Locator("[data-testid=skill-row][data-name=code-reviewer]")
	h.expectVisible(row, "the code-reviewer skill in the picker")
	h.expectInView(picker, "the skills picker")
	h.shot("skills-picker")
	if err := row.Locator("input[type=checkbox]").Check(); err != nil {
		t.Fatal(err)
	}
	active := wv.Locator(selActiveSkill + "[data-name=code-reviewer]")
	h.expectVisible(active, "the active skill's chip")
	if err := picker.Locator("button[title]").First().Click(); err != nil {
		t.Fatal(err)
	}
	h.expectInView(active, "the active skill's chip")
	h.expectText(btn, "(1)")
	h.shot("skill-active")
	h.sendChat(wv, "Please review the change")
	h.expectNewestInView(wv, "Reviewed with the skill.")
	if u := lastChatRequest(t, h).lastUserText(); !strings.Contains(u, "Active skills: code-reviewer") {
		t.Fatalf("the activated skill is not named in the request:\n%s", u)
	}

	// A reload (a new sidecar reading the store): the sent message keeps
	// its attachment, and the skill stays active for the session.
	h.runCommand("Developer: Reload Window")
	if err := h.Expect.Locator(h.Page.Locator(selWorkbench)).ToBeVisible(); err != nil {
		t.Fatalf("the workbench did not come back after the reload: %v", err)
	}
	wv = h.reopenedGoVibe()
	h.awaitServerReady(wv)
	h.expectText(wv.Locator(selAttachmentChip+"[data-kind=file]").First(), "calc.go")
	h.expectVisible(wv.Locator(selActiveSkill+"[data-name=code-reviewer]"), "the active skill after the reload")
	h.shot("after-reload")
}

func lastChatRequest(t *testing.T, h *harness) recordedRequest {
	t.Helper()
	reqs := chatRequests(h.Model.recorded(t))
	if len(reqs) == 0 {
		t.Fatal("the model got no chat request")
	}
	return reqs[len(reqs)-1]
}
