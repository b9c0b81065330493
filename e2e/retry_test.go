package e2e

import (
	"testing"
)

// Retry: a request the provider refuses ends the turn with an error card
// whose Retry button sends the same message again, so nobody retypes it;
// the answer to the retry lands in view.
func TestScenarioRetryResendsTheMessage(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "flaky question", On: "user", Reply: modelReply{Text: "The answer after a retry.",
			Faults: []modelFault{{Kind: "status", Status: 400, Body: `{"error":{"message":"the request was refused, try again"}}`}}}},
	}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "A flaky question, please")
	errCard := wv.Locator("[data-testid=error]").Last()
	h.expectVisible(errCard, "an error card after the refused request")
	retry := errCard.Locator("[data-testid=error-retry]")
	h.expectInView(retry, "the error's Retry button")
	h.shot("error-with-retry")
	// The provider recovers; Retry must send the same message again.
	h.Model.SetScript(t, modelRules{Rules: []modelRule{{Match: "flaky question", On: "user", Reply: modelReply{Text: "The answer after a retry."}}}})
	if err := retry.Click(); err != nil {
		t.Fatalf("click Retry: %v", err)
	}
	h.expectNewestInView(wv, "The answer after a retry.")
	users := wv.Locator(selUserMessage)
	if err := h.Expect.Locator(users).ToHaveCount(2); err != nil {
		t.Fatalf("Retry did not send the message again: %v", err)
	}
	h.expectText(users.Last(), "A flaky question, please")
	h.shot("answer-after-retry")
}
