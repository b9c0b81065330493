package e2e

import (
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// selConfirmCloseDialog is Close on an answered question whose dialog
// waits for the agent.
const selConfirmCloseDialog = "[data-testid=confirm-close-dialog]"

// The user picks a choice, the dialog waits for the agent, and the user
// closes it while the agent works: the card goes, the choice stays the
// question's result, and the model reads of the close with its next tool
// result (list_files'), which it answers.
func TestScenarioAskHumanCloseWhileWaiting(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "closed the question dialog", On: "tool", Reply: modelReply{Text: "Understood: blue is final."}},
		// Streamed slowly, so the user closes the dialog while it streams.
		{Match: "The user replied: blue", On: "tool", Reply: slowly("Blue it is. I will look at the files of the page before I change its styles, one moment.",
			modelReply{ToolCalls: []modelToolCall{toolCall("list_files", map[string]any{})}})},
		{Match: "style the page", On: "user", Reply: askCall("Which colour?", "red", "blue")},
	}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "Please style the page")
	card := questionCard(wv)
	h.expectText(card.Locator(selConfirmQuestion), "Which colour?")
	if err := card.Locator(selConfirmOption, playwright.LocatorLocatorOptions{HasText: "blue"}).Click(); err != nil {
		t.Fatalf("click blue: %v", err)
	}
	replied := wv.Locator(selConfirmCard + "[data-kind=question][data-state=replied]")
	h.expectText(replied.Locator(selConfirmReply), "You replied: blue")
	if err := replied.Locator(selConfirmCloseDialog).Click(); err != nil {
		t.Fatalf("click Close: %v", err)
	}
	if err := h.Expect.Locator(questionCard(wv)).ToHaveCount(0); err != nil {
		t.Fatalf("the closed dialog is still shown: %v", err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Understood: blue is final.")
	var replies, notes int
	for _, m := range chatRequests(h.Model.recorded(t))[len(chatRequests(h.Model.recorded(t)))-1].Messages {
		if m.Role != "tool" {
			continue
		}
		if m.Content == "The user replied: blue" {
			replies++
		}
		if strings.Contains(m.Content, "the user has since closed the question dialog") {
			notes++
		}
	}
	if replies != 1 || notes != 1 {
		t.Fatalf("the model's last request has %d replies and %d close notes, want 1 and 1", replies, notes)
	}
}
