package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// The cost of a session as the chat shows it at the default sidebar width
// (issue 35): each answer carries its request's cache hit and size ("cache
// unknown" when the provider reports no cached tokens, never 0%; a real
// share when it does), the header keeps the session's totals in view, a
// compaction leaves a notice naming what was summarised and what was kept
// word for word (the request and the user's decision), and the answer
// after it says on hover that the cache missed because of the compaction.
func TestScenarioCostAndCacheInTheChat(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 40; i++ {
		long.WriteString("Step of the plan for the cache figures, written out so the conversation has something to summarise. ")
	}
	long.WriteString("The plan is written.")
	ask := askCall("Which provider should the plan target?", "DeepSeek", "Qwen")
	ask.Usage = noCache(500, 100)
	h := newHarness(t, harnessOptions{Extension: true,
		// Little is kept verbatim by size (0 means the default, 20,000), so
		// /compact summarises the first turn and keeps the second.
		WorkspaceSettings: map[string]any{"govibe.compact.keepTokens": 100},
		ModelRules: modelRules{Rules: []modelRule{
			// The summary request ends with the <state_snapshot> instruction.
			{Match: "<state_snapshot>", On: "user", Reply: modelReply{Text: "<state_snapshot>\n<overall_goal>Plan the cache work on DeepSeek.</overall_goal>\n</state_snapshot>"}},
			// The first turn's two requests report no cached tokens, as some
			// providers do: the chat says unknown, never 0%.
			{Match: "The user replied: DeepSeek", On: "tool", Reply: modelReply{Text: long.String(), Usage: noCache(800, 900)}},
			{Match: "plan the cache work", On: "user", Reply: ask},
			// Estimated usage: cached = the prefix shared with the previous request.
			// Longer than keepTokens, so the compaction keeps this turn and
			// summarises the first.
			{Match: "A second question", On: "user", Reply: modelReply{Text: "The second answer. " + strings.Repeat("A detail of the second answer. ", 30)}},
			{Match: "After the compaction", On: "user", Reply: modelReply{Text: "The answer after the compaction."}},
		}}})
	wv := h.openGoVibe()

	h.sendChat(wv, "Please plan the cache work")
	card := questionCard(wv)
	h.expectVisible(card, "the question card")
	if err := card.Locator(selConfirmOption, playwright.LocatorLocatorOptions{HasText: "DeepSeek"}).Click(); err != nil {
		t.Fatalf("click the DeepSeek option: %v", err)
	}
	first := wv.Locator(selAssistantMessage, playwright.FrameLocatorLocatorOptions{HasText: "The plan is written."})
	// The turn's figures: both requests, 1,300 + 1,000 tokens.
	firstLine := h.expectUsageLine(wv, first, regexp.MustCompile(`^cache unknown · 2\.3k tokens$`), "the first answer (no cached tokens reported)")
	if err := h.Expect.Locator(firstLine).ToHaveAttribute("title", "Prompt: 1.3k tokens, 0 cached"); err != nil {
		t.Fatalf("the first answer's usage line does not hold the turn's prompt: %v", err)
	}
	h.expectSessionTotals(wv)
	h.shot("cost-unknown-cache")

	h.sendChat(wv, "A second question")
	second := wv.Locator(selAssistantMessage, playwright.FrameLocatorLocatorOptions{HasText: "The second answer."})
	line := h.expectUsageLine(wv, second, regexp.MustCompile(`^cache [1-9]\d*% · [\d.,k]+ tokens$`), "the second answer (cached tokens reported)")
	if err := h.Expect.Locator(line).ToHaveAttribute("title", regexp.MustCompile(`^Prompt: [\d.,k]+ tokens, [1-9][\d.,k]* cached`)); err != nil {
		t.Fatalf("the second answer's usage line does not name its cached tokens on hover: %v", err)
	}
	// Its prefix is the first turn's requests: a hit, so no miss is named.
	if err := h.Expect.Locator(line).Not().ToHaveAttribute("data-miss", regexp.MustCompile(`.`)); err != nil {
		t.Fatalf("the second answer's cache hit is reported as a miss: %v", err)
	}
	h.expectSessionTotals(wv)
	h.shot("cost-cache-hit")

	if err := wv.Locator(selCompact).Click(); err != nil {
		t.Fatalf("click Compact: %v", err)
	}
	notice := wv.Locator("[data-testid=compaction]")
	h.expectText(notice, "Earlier messages were summarised")
	if err := h.Expect.Locator(notice.Locator("[data-testid=compaction-summarised]")).ToHaveText(regexp.MustCompile(`^[1-9]\d* messages summarised$`)); err != nil {
		t.Fatalf("the compaction notice does not say how many messages were summarised: %v", err)
	}
	if err := h.Expect.Locator(notice.Locator("[data-testid=compaction-kept]")).ToHaveText(
		"kept word for word: your request, 1 decision of yours"); err != nil {
		t.Fatalf("the compaction notice does not name what was kept: %v", err)
	}
	h.expectOneLine(notice.Locator("[data-testid=compaction-toggle]"), "the notice's Show summary")
	h.expectInside(notice, wv.Locator(selTranscript), "the compaction notice inside the transcript")
	h.expectInView(notice, "the compaction notice")
	h.expectNoOverflow(wv, "compaction notice")
	// The kept block, word for word, is behind Show summary.
	toggle := notice.Locator("[data-testid=compaction-toggle]")
	if err := toggle.Click(); err != nil {
		t.Fatalf("click Show summary: %v", err)
	}
	h.expectOneLine(toggle, "the notice's Hide summary")
	kept := notice.Locator("[data-testid=compaction-kept-text]")
	h.expectText(kept, "Please plan the cache work")
	h.expectText(kept, "DeepSeek")
	h.expectNoOverflow(wv, "the kept block")
	h.shot("compaction-notice")

	h.sendChat(wv, "After the compaction")
	after := wv.Locator(selAssistantMessage, playwright.FrameLocatorLocatorOptions{HasText: "The answer after the compaction."})
	miss := h.expectUsageLine(wv, after, regexp.MustCompile(`^cache \d+% · [\d.,k]+ tokens$`), "the answer after the compaction")
	if err := h.Expect.Locator(miss).ToHaveAttribute("data-miss", "compaction"); err != nil {
		t.Fatalf("the answer after the compaction does not name the miss cause: %v", err)
	}
	if err := miss.Hover(); err != nil {
		t.Fatalf("hover the usage line: %v", err)
	}
	if err := h.Expect.Locator(miss).ToHaveAttribute("title", regexp.MustCompile(`Cache missed: the conversation was compacted`)); err != nil {
		t.Fatalf("hovering the usage line does not name the miss cause: %v", err)
	}
	h.expectSessionTotals(wv)
	h.shot("cost-after-compaction")
}

// noCache is usage as a provider that reports no cached tokens sends it.
func noCache(prompt, completion int64) *modelUsage {
	return &modelUsage{PromptTokens: prompt, CompletionTokens: completion, CacheFields: "none"}
}

// expectUsageLine checks msg's usage line: its text, one line, inside its
// message and in view. It returns the line.
func (h *harness) expectUsageLine(wv playwright.FrameLocator, msg playwright.Locator, text *regexp.Regexp, what string) playwright.Locator {
	h.t.Helper()
	line := msg.Locator("[data-testid=usage-line]")
	if err := h.Expect.Locator(line).ToHaveText(text); err != nil {
		h.shot("usage-line-failure")
		h.t.Fatalf("%s: usage line: %v", what, err)
	}
	h.expectInside(line, msg, what+": usage line inside its message")
	h.expectInView(line, what+": usage line")
	h.expectNotClipped(line, what+": usage line")
	h.expectNoOverflow(wv, what)
	return line
}

// expectSessionTotals checks the header's session figures: the total
// (tokens, as the scripted model has no prices) whole and in view, and the
// session's input, cached share and cost in its tooltip.
func (h *harness) expectSessionTotals(wv playwright.FrameLocator) {
	h.t.Helper()
	total := wv.Locator("[data-testid=session-cost]")
	if err := h.Expect.Locator(total).ToHaveText(regexp.MustCompile(`^[\d.,k]+ tok$`)); err != nil {
		h.t.Fatalf("the header's session total: %v", err)
	}
	h.expectInView(total, "the header's session total")
	h.expectNotClipped(total, "the header's session total")
	bar := wv.Locator("[data-testid=context-bar]")
	h.expectInView(bar, "the header's context meter")
	if err := h.Expect.Locator(bar).ToHaveAttribute("title", regexp.MustCompile(
		`Session input: [\d.,k]+ tokens \([\d.,k]+ cached\)\nSession cache hit: (unknown|\d+%)\n`)); err != nil {
		h.t.Fatalf("the header's tooltip lacks the session totals: %v", err)
	}
}
