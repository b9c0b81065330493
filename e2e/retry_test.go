package e2e

import (
	"testing"
)

// Retry: a request the provider refuses ends the turn with an error card
// whose Retry button sends the same message again, so nobody retypes it.
// Each retry takes the failed attempt's place: a retry that fails too
// leaves one copy of the message and one error card (one live Retry), and
// after the provider recovers the answer lands in view under the one
// message, which a reload shows the same way.
func TestScenarioRetryResendsTheMessage(t *testing.T) {
	refused := modelFault{Kind: "status", Status: 400, Body: `{"error":{"message":"the request was refused, try again"}}`}
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "flaky question", On: "user", Reply: modelReply{Text: "The answer after a retry.",
			Faults: []modelFault{refused, refused, refused, refused}}},
	}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "A flaky question, please")
	errCards := wv.Locator("[data-testid=error]")
	users := wv.Locator(selUserMessage)
	h.expectVisible(errCards.Last(), "an error card after the refused request")
	retry := errCards.Last().Locator("[data-testid=error-retry]")
	h.expectInView(retry, "the error's Retry button")
	h.shot("error-with-retry")

	// Still refused: the second attempt replaces the first.
	if err := retry.Click(); err != nil {
		t.Fatalf("click Retry: %v", err)
	}
	h.expectVisible(errCards.Last(), "an error card after the refused retry")
	if err := h.Expect.Locator(users).ToHaveCount(1); err != nil {
		t.Fatalf("a failed retry added a second copy of the message: %v", err)
	}
	if err := h.Expect.Locator(errCards).ToHaveCount(1); err != nil {
		t.Fatalf("a failed retry left the first error card: %v", err)
	}
	if err := h.Expect.Locator(wv.Locator("[data-testid=error-retry]")).ToHaveCount(1); err != nil {
		t.Fatalf("more than one live Retry: %v", err)
	}
	h.shot("error-after-failed-retry")

	// The provider recovers; Retry sends the same message again.
	h.Model.SetScript(t, modelRules{Rules: []modelRule{{Match: "flaky question", On: "user", Reply: modelReply{Text: "The answer after a retry."}}}})
	if err := errCards.Last().Locator("[data-testid=error-retry]").Click(); err != nil {
		t.Fatalf("click Retry: %v", err)
	}
	h.expectNewestInView(wv, "The answer after a retry.")
	if err := h.Expect.Locator(users).ToHaveCount(1); err != nil {
		t.Fatalf("after the retries the message is not shown once: %v", err)
	}
	if err := h.Expect.Locator(errCards).ToHaveCount(0); err != nil {
		t.Fatalf("an error card of a replaced attempt is left: %v", err)
	}
	h.expectText(users.Last(), "A flaky question, please")
	h.shot("answer-after-retry")

	// A reload shows the same: one message, its answer, no failed attempt.
	h.runCommand("Developer: Reload Window")
	wv = h.reopenedGoVibe()
	h.expectText(wv.Locator(selAssistantMessage).Last(), "The answer after a retry.")
	if err := h.Expect.Locator(wv.Locator(selUserMessage)).ToHaveCount(1); err != nil {
		t.Fatalf("after a reload the failed attempts are back: %v", err)
	}
	if err := h.Expect.Locator(wv.Locator(selChatNotice + ".notice-error")).ToHaveCount(0); err != nil {
		t.Fatalf("after a reload a failed attempt's error is back: %v", err)
	}
}
