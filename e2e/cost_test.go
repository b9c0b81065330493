package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// The cost of a session as the chat shows it at the default sidebar width
// (issue 35). A first turn (a question the user answers, a two-item plan,
// a long answer) whose requests report no cached tokens reads "cache
// unknown", never 0%; the plan's closing answer extends the main agent's
// request and names no miss. The next turn extends the main agent's request from before
// the plan and names no miss; the one after shows a
// real hit with no miss named, and the header keeps the session's totals
// whole in view. Compact leaves a notice naming what was summarised and
// what was kept word for word (the request, the todo list, the user's
// decision), and the answer after it says on hover that the cache missed
// because of the compaction, after a reload too.
func TestScenarioCostAndCacheInTheChat(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 40; i++ {
		long.WriteString("Step of the plan for the cache figures, written out so the conversation has something to summarise. ")
	}
	long.WriteString("The plan is written.")
	ask := askCall("Which provider should the plan target?", "DeepSeek", "Qwen")
	ask.Usage = noCache(500, 100)
	plan := modelReply{ToolCalls: []modelToolCall{toolCall("create_todo_list",
		map[string]any{"goal": "Cache figures", "items": []string{"Count cached tokens", "Show the hit"}})}, Usage: noCache(600, 50)}
	complete := func(i int) modelReply {
		return modelReply{ToolCalls: []modelToolCall{toolCall("complete_todo_item", map[string]any{"index": i, "summary": "checked"})}, Usage: noCache(300, 20)}
	}
	// Every request of the first turn reports no cached tokens, as some
	// providers do: the chat says unknown, never 0%.
	quiet := func(text string) modelReply { return modelReply{Text: text, Usage: noCache(300, 20)} }
	h := newHarness(t, harnessOptions{Extension: true, Settings: map[string]any{"govibe.todolistReview.enabled": false},
		// Little is kept verbatim by size (0 means the default, 20,000), so
		// /compact summarises the first turn and keeps the second.
		WorkspaceSettings: map[string]any{"govibe.compact.keepTokens": 100},
		ModelRules: modelRules{Rules: []modelRule{
			// The summary request ends with the <state_snapshot> instruction.
			{Match: "<state_snapshot>", On: "user", Reply: modelReply{Text: "<state_snapshot>\n<overall_goal>Plan the cache work on DeepSeek.</overall_goal>\n</state_snapshot>"}},
			// The first turn: a question, the user's decision, a two-item
			// plan the scheduler runs (as in TestScenarioTodoPanelTicksOver),
			// then a long answer.
			{Match: "is done.", On: "tool", Reply: quiet("Verified.")},
			{Match: "[scheduler]", On: "user", Reply: modelReply{Text: long.String(), Usage: noCache(800, 900)}},
			{Match: "[evaluator:1]", On: "user", Reply: complete(1)},
			{Match: "[evaluator:2]", On: "user", Reply: complete(2)},
			{Match: "[executor:1]", On: "user", Reply: quiet("Item one is done.")},
			{Match: "[executor:2]", On: "user", Reply: quiet("Item two is done.")},
			{Match: "The user replied: DeepSeek", On: "tool", Reply: plan},
			{Match: "plan the cache work", On: "user", Reply: ask},
			// Estimated usage: cached = the prefix shared with the previous request.
			{Match: "A second question", On: "user", Reply: modelReply{Text: "The second answer."}},
			// Longer than keepTokens, so the compaction keeps this turn and
			// summarises the first two.
			{Match: "A third question", On: "user", Reply: modelReply{Text: "The third answer. " + strings.Repeat("A detail of the third answer. ", 30)}},
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
	// The plan's closing answer is a request of its own.
	firstLine := h.expectUsageLine(wv, first, regexp.MustCompile(`^cache unknown · 1\.7k tokens$`), "the first answer (no cached tokens reported)")
	// The plan's final run is judged against the main agent's requests,
	// not the evaluator's that came just before it, and it is sent the
	// main agent's system prompt and tools (the plan tool refused, not
	// withdrawn): its request extends the main agent's, so no miss is
	// named. The line is the same whether the usage event or the stored
	// message drew it (it once raced between the two).
	if err := h.Expect.Locator(firstLine).ToHaveAttribute("title", regexp.MustCompile(`^Prompt: 800 tokens, 0 cached$`)); err != nil {
		t.Fatalf("the first answer's usage line does not hold its prompt: %v", err)
	}
	if err := h.Expect.Locator(firstLine).Not().ToHaveAttribute("data-miss", regexp.MustCompile(`.`)); err != nil {
		t.Fatalf("the plan's closing answer, extending the main agent's request, names a miss: %v", err)
	}
	// No request of the turn reported cached tokens: no line says 0%.
	lines, err := wv.Locator("[data-testid=usage-line]").AllTextContents()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "cache unknown · ") {
			h.shot("usage-line-failure")
			t.Fatalf("a usage line of the first turn gives a share the provider never reported: %q (all: %q)", l, lines)
		}
	}
	h.expectSessionTotals(wv)
	h.shot("cost-unknown-cache")

	// The next turn is the main agent's again: its request extends the
	// main agent's last one before the plan (same tools, same system
	// prompt), whose prefix a provider keeps, so no miss is named even
	// though the plan's own requests came in between.
	h.sendChat(wv, "A second question")
	second := wv.Locator(selAssistantMessage, playwright.FrameLocatorLocatorOptions{HasText: "The second answer."})
	line := h.expectUsageLine(wv, second, regexp.MustCompile(`^cache \d+% · [\d.,k]+ tokens$`), "the second answer")
	if err := h.Expect.Locator(line).Not().ToHaveAttribute("data-miss", regexp.MustCompile(`.`)); err != nil {
		t.Fatalf("the second answer, extending the main agent's request, names a miss: %v", err)
	}

	h.sendChat(wv, "A third question")
	third := wv.Locator(selAssistantMessage, playwright.FrameLocatorLocatorOptions{HasText: "The third answer."})
	line = h.expectUsageLine(wv, third, regexp.MustCompile(`^cache [1-9]\d*% · [\d.,k]+ tokens$`), "the third answer (cached tokens reported)")
	if err := h.Expect.Locator(line).ToHaveAttribute("title", regexp.MustCompile(`^Prompt: [\d.,k]+ tokens, [1-9][\d.,k]* cached$`)); err != nil {
		t.Fatalf("the third answer's usage line does not name its cached tokens on hover: %v", err)
	}
	// Its prefix is the second turn's request: a hit, so no miss is named.
	if err := h.Expect.Locator(line).Not().ToHaveAttribute("data-miss", regexp.MustCompile(`.`)); err != nil {
		t.Fatalf("the third answer's cache hit is reported as a miss: %v", err)
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
		"kept word for word: your request, the todo list (2 of 2 done), 1 decision of yours"); err != nil {
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
	// The summary reads as labelled sections, not the model's XML.
	h.expectText(notice.Locator("strong", playwright.LocatorLocatorOptions{HasText: "Goal"}), "Goal")
	if err := h.Expect.Locator(notice.Locator(".markdown")).Not().ToContainText("<state_snapshot>"); err != nil {
		t.Fatalf("the summary shows its XML tags: %v", err)
	}
	kept := notice.Locator("[data-testid=compaction-kept-text]")
	h.expectText(kept, "Please plan the cache work")
	h.expectText(kept, "DeepSeek")
	h.expectText(kept, "Count cached tokens")
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

	// A reload draws the lines from the store: the same figures and causes.
	h.runCommand("Developer: Reload Window")
	if err := h.Expect.Locator(h.Page.Locator(selWorkbench)).ToBeVisible(); err != nil {
		t.Fatalf("the workbench did not come back after the reload: %v", err)
	}
	wv = h.reopenedGoVibe()
	h.awaitServerReady(wv)
	after = wv.Locator(selAssistantMessage, playwright.FrameLocatorLocatorOptions{HasText: "The answer after the compaction."})
	miss = h.expectUsageLine(wv, after, regexp.MustCompile(`^cache \d+% · [\d.,k]+ tokens$`), "the answer after the compaction, reloaded")
	if err := h.Expect.Locator(miss).ToHaveAttribute("data-miss", "compaction"); err != nil {
		t.Fatalf("after a reload, the answer after the compaction does not name the miss cause: %v", err)
	}
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
