package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// The chat at the default sidebar width: the header shows the model and a
// readable context meter, a long answer lands in view (the list follows
// the bottom), nothing overflows its card, and a second send scrolls to
// the new turn even after the reader scrolled up.
func TestScenarioChatLayoutFollowsTheNewTurn(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 80; i++ {
		fmt.Fprintf(&long, "Line %d of a long answer with `code_like_identifiers_that_are_rather_long_%d`.\n\n", i, i)
	}
	long.WriteString("The end of the long answer.")
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "long answer", Reply: modelReply{Text: long.String(), ChunkSize: 400, ChunkDelayMS: 5}},
		{Match: "second question", Reply: modelReply{Text: "The second answer."}},
	}}})
	wv := h.openGoVibe()
	h.expectText(wv.Locator(selModelPicker), "scripted")
	h.sendChat(wv, "Please give me a long answer")
	h.expectNewestInView(wv, "The end of the long answer.")
	h.expectNoOverflow(wv, "long answer")
	h.expectVisible(wv.Locator("[data-testid=context-label]"), "the context meter's label")
	h.expectNotClipped(wv.Locator("[data-testid=model-picker] .model-label"), "the model's name in the header")
	h.shot("long-answer")

	// Scroll up: the list stops following and offers to jump back.
	if _, err := wv.Locator("[data-testid=transcript]").Evaluate("el => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); }", nil); err != nil {
		t.Fatal(err)
	}
	h.expectVisible(wv.Locator("[data-testid=jump-latest]"), "a Jump to latest button after scrolling up")
	h.shot("scrolled-up")
	h.sendChat(wv, "A second question")
	h.expectNewestInView(wv, "The second answer.")
	h.shot("second-answer")
}
