package e2e

import (
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// What a new user meets at the default sidebar width, checked by boxes:
// the empty chat (welcome, examples that fill the input, the model named),
// a title that uses its row and is whole when it fits, a sub-agent's group
// drawn before the answer that came after it, an ask_human card whose
// summary is text rather than markdown, and an info notice whose icon sits
// beside its text.
func TestScenarioChatFirstUse(t *testing.T) {
	report := `{"report":{"SummaryOfFindings":"calc.go defines Add, which subtracts.","ExplorationTrace":["read calc.go"],"RelevantLocations":[{"FilePath":"calc.go","Reasoning":"Add is wrong","KeySymbols":["Add"]}]}}`
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		// The investigator's own requests: its objective is its first message.
		{Match: "Find what calc.go does", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{{Name: "complete_task", Arguments: report}}}},
		{Match: "SummaryOfFindings", On: "tool", Reply: modelReply{Text: "The final answer: Add subtracts instead of adding."}},
		{Match: "Explain calc.go", On: "user", Reply: modelReply{Text: "Let me investigate.", ToolCalls: []modelToolCall{
			toolCall("investigate", map[string]any{"objective": "Find what calc.go does"})}}},
		{Match: "The user replied: postgres", On: "tool", Reply: modelReply{Text: "Postgres it is."}},
		{Match: "database", On: "user", Reply: askCall("Which **database** should I use?", "sqlite", "postgres")},
	}}})
	wv := h.openGoVibe()

	// The empty chat: what GoVibe does, examples, the model in view.
	empty := wv.Locator("[data-testid=empty]")
	h.expectText(empty.Locator(".empty-title"), "What should we work on?")
	h.expectText(wv.Locator("[data-testid=empty-model]"), "scripted")
	examples := wv.Locator("[data-testid=empty-example]")
	for i := 0; i < 3; i++ {
		h.expectInView(examples.Nth(i), "an example prompt")
	}
	h.expectNoOverflow(wv, "the empty chat")
	// The activity bar's hover label would cover the view in the screenshot.
	if err := h.Page.Mouse().Move(900, 450); err != nil {
		t.Fatal(err)
	}
	h.shot("first-open")
	if err := examples.First().Click(); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(wv.Locator(selChatInput)).ToHaveValue("Explain how this project is organised"); err != nil {
		t.Fatalf("an example does not fill the input: %v", err)
	}

	// A sub-agent's group comes before the answer the turn gave after it.
	h.sendChat(wv, "Explain calc.go please")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "The final answer: Add subtracts")
	group := wv.Locator("[data-testid=subagent-group]").First()
	h.expectVisible(group, "the investigator's group")
	order, err := wv.Locator("body").Evaluate(`() => {
	  const g = document.querySelector('[data-testid=subagent-group]');
	  const a = [...document.querySelectorAll('[data-testid=message-assistant]')].find((m) => m.textContent.includes('The final answer'));
	  return !!(g && a && (g.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING));
	}`, nil)
	if err != nil || order != true {
		h.shot("order-failure")
		t.Fatalf("the sub-agent group is not drawn before the final answer (%v)", err)
	}
	// The title is short enough for its row: shown whole, and in full on hover.
	title := wv.Locator("[data-testid=session-title]")
	h.expectText(title, "Explain calc.go please")
	h.expectNotClipped(title, "the session title")
	if err := h.Expect.Locator(title).ToHaveAttribute("title", "Explain calc.go please"); err != nil {
		t.Fatalf("the title's hover text: %v", err)
	}
	h.expectNoOverflow(wv, "the sub-agent turn")
	h.shot("subagent-order")
	// With the context meter shown, the header is still two rows.
	h.expectVisible(wv.Locator("[data-testid=context-label]"), "the context meter's label")
	h.expectNotClipped(wv.Locator("[data-testid=model-picker] .model-label"), "the model's name in the header")
	h.expectCompactHeader(wv, "header-default-width")

	// A reload (a new sidecar reading the store) brings the investigator's
	// group back, folded, before the answer, with its tool calls counted.
	h.runCommand("Developer: Reload Window")
	if err := h.Expect.Locator(h.Page.Locator(selWorkbench)).ToBeVisible(); err != nil {
		t.Fatalf("the workbench did not come back after the reload: %v", err)
	}
	wv = h.reopenedGoVibe()
	h.awaitServerReady(wv)
	group = wv.Locator("[data-testid=subagent-group]").First()
	h.expectVisible(group, "the investigator's group after a reload")
	h.expectText(group, "investigate")
	h.expectText(group, "1 tool call")
	if err := h.Expect.Locator(group).ToHaveAttribute("aria-expanded", "false"); err != nil {
		t.Fatalf("the reloaded group is not folded: %v", err)
	}
	order, err = wv.Locator("body").Evaluate(`() => {
	  const g = document.querySelector('[data-testid=subagent-group]');
	  const a = [...document.querySelectorAll('[data-testid=message-assistant]')].find((m) => m.textContent.includes('The final answer'));
	  return !!(g && a && (g.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING));
	}`, nil)
	if err != nil || order != true {
		h.shot("reload-order-failure")
		t.Fatalf("after a reload the sub-agent group is not drawn before the final answer (%v)", err)
	}
	// Opened, its task is a muted line, not something the user typed.
	if err := group.Click(); err != nil {
		t.Fatal(err)
	}
	h.expectText(wv.Locator("[data-testid=engine-line][data-origin=subagent-task]"), "Find what calc.go does")
	users, _ := wv.Locator(selUserMessage).AllTextContents()
	for _, u := range users {
		if strings.Contains(u, "Find what calc.go does") {
			t.Fatalf("the sub-agent's task shows as a user message: %q", u)
		}
	}
	h.shot("subagent-after-reload")

	// ask_human: the card's summary in the transcript is text, not markdown.
	h.sendChat(wv, "Please set up a database")
	card := questionCard(wv)
	h.expectVisible(card, "the question card")
	if err := card.Locator(selConfirmOption, playwright.LocatorLocatorOptions{HasText: "postgres"}).Click(); err != nil {
		t.Fatal(err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Postgres it is.")
	summary := wv.Locator(selToolCard+" .tool-summary", playwright.FrameLocatorLocatorOptions{HasText: "Which database should I use?"})
	h.expectVisible(summary, "the ask_human card's plain-text summary")
	if text, _ := summary.TextContent(); strings.Contains(text, "*") {
		t.Fatalf("the ask_human summary shows markdown: %q", text)
	}
	h.shot("ask-human-summary")

	// An info notice (/help): the icon is left of the text, on its first line.
	h.sendChat(wv, "/help")
	notice := wv.Locator("[data-testid=notice]").Last()
	h.expectVisible(notice, "the /help notice")
	if _, err := notice.Evaluate("el => el.scrollIntoView({ block: 'start' })", nil); err != nil {
		t.Fatal(err)
	}
	icon := h.box(notice.Locator(".codicon").First(), "the notice's icon")
	text := h.box(notice.Locator(".notice-text"), "the notice's text")
	if icon.X+icon.Width > text.X+1 || icon.Y+icon.Height < text.Y || icon.Y > text.Y+20 {
		h.shot("notice-layout-failure")
		t.Fatalf("the notice's icon %+v is not beside the first line of its text %+v", icon, text)
	}
	h.shot("info-notice")
}
