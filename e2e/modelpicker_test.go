package e2e

import (
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// The header's model button opens the quick pick of the profiles (each
// with its window and price); picking one sends the open session's next
// request to that profile's model (over an earlier /model choice), the
// button shows it, and the session records it.
func TestScenarioHeaderModelPickerSwitchesTheNextRequest(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true,
		ModelRules: modelRules{Rules: []modelRule{
			{Match: "ping one", Reply: modelReply{Text: "pong one"}},
			{Match: "ping two", Reply: modelReply{Text: "pong two"}},
		}},
		Settings: map[string]any{
			"govibe.models": []any{
				map[string]any{"name": "fast", "model": "fast-model", "contextWindow": 64000},
				map[string]any{"name": "strong", "model": "strong-model", "contextWindow": 200000, "priceInput": 1, "priceOutput": 4},
			},
			"govibe.model": "fast",
		}})
	wv := h.openGoVibe()
	button := wv.Locator(selModelPicker)
	h.expectText(button, "fast")

	// A /model choice for this session first: the header's pick below must
	// still win for the session's next request.
	h.sendChat(wv, "/model fast")
	h.expectText(wv.Locator(selChatNotice).Last(), "This session now uses fast-model")
	h.sendChat(wv, "ping one")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "pong one")
	if reqs := chatRequests(h.Model.recorded(t)); len(reqs) != 1 || reqs[0].Model != "fast-model" {
		t.Fatalf("the first request did not go to fast-model: %+v", reqs)
	}

	h.expectInView(button, "the header's model button")
	if err := button.Click(); err != nil {
		t.Fatalf("click the model button: %v", err)
	}
	strong := h.Page.Locator(selQuickInputRow, playwright.PageLocatorOptions{HasText: "strong"})
	h.expectVisible(strong, "the profile 'strong' in the model quick pick")
	h.expectText(strong, "window 200k")
	h.expectText(strong, "$1 in / $4 out per M")
	h.shot("model-quick-pick")
	pick, err := h.Page.Locator(selQuickInput).BoundingBox()
	if err != nil || pick == nil {
		t.Fatalf("the quick pick has no box: %v", err)
	}
	row, err := strong.BoundingBox()
	if err != nil || row == nil || row.Y < pick.Y || row.Y+row.Height > pick.Y+pick.Height || row.Width <= 0 {
		t.Fatalf("the profile row %+v is not inside the quick pick %+v (%v)", row, pick, err)
	}
	if err := strong.Click(); err != nil {
		t.Fatalf("pick 'strong': %v", err)
	}
	if err := h.Expect.Locator(h.Page.Locator(selQuickInput)).ToBeHidden(); err != nil {
		t.Fatalf("the quick pick stayed open: %v", err)
	}
	h.expectText(button, "strong")
	h.shot("after-switch")

	h.sendChat(wv, "ping two")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "pong two")
	reqs := chatRequests(h.Model.recorded(t))
	if len(reqs) != 2 || reqs[1].Model != "strong-model" {
		t.Fatalf("the request after the switch did not go to strong-model: %+v", reqs)
	}
	// The session records the model its turns now use.
	items := h.openSessionList(wv)
	if err := h.Expect.Locator(items.First()).ToHaveAttribute("data-model", "strong-model"); err != nil {
		t.Fatalf("the session does not record strong-model: %v", err)
	}
	h.shot("session-records-model")
}

// A model switch moves the header's context meter to the new model's
// window at once, before any request: /model to a larger profile turns
// "N / 64k" into "N / 200k" (and the model button names it), and picking
// the smaller one in the header's quick pick turns it back. No request
// is sent for either.
func TestScenarioModelSwitchMovesTheContextMeter(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true,
		ModelRules: modelRules{Rules: []modelRule{{Match: "ping", Reply: modelReply{Text: "pong"}}}},
		Settings: map[string]any{
			"govibe.models": []any{
				map[string]any{"name": "fast", "model": "fast-model", "contextWindow": 64000},
				map[string]any{"name": "strong", "model": "strong-model", "contextWindow": 200000},
			},
			"govibe.model": "fast",
		}})
	wv := h.openGoVibe()
	label := wv.Locator(selContextLabel)
	window := func(w string) {
		t.Helper()
		if err := h.Expect.Locator(label).ToHaveText(regexp.MustCompile(`^[0-9.]+k? / ` + regexp.QuoteMeta(w) + `$`)); err != nil {
			t.Fatalf("the context meter does not show the %s window: %v", w, err)
		}
	}
	h.sendChat(wv, "ping")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "pong")
	window("64k")
	h.expectInView(label, "the context meter")

	h.sendChat(wv, "/model strong")
	h.expectText(wv.Locator(selChatNotice).Last(), "This session now uses strong-model")
	window("200k")
	// The button names the session's own choice, as the meter shows its window.
	h.expectText(wv.Locator(selModelPicker), "strong")
	h.shot("meter-after-model-command")

	if err := wv.Locator(selModelPicker).Click(); err != nil {
		t.Fatalf("click the model button: %v", err)
	}
	fast := h.Page.Locator(selQuickInputRow, playwright.PageLocatorOptions{HasText: "fast"})
	h.expectVisible(fast, "the profile 'fast' in the model quick pick")
	if err := fast.Click(); err != nil {
		t.Fatalf("pick 'fast': %v", err)
	}
	window("64k")
	h.expectText(wv.Locator(selModelPicker), "fast")
	h.shot("meter-after-header-pick")
	if reqs := chatRequests(h.Model.recorded(t)); len(reqs) != 1 {
		t.Fatalf("a switch sent a request: %d chat requests, want 1", len(reqs))
	}
}
