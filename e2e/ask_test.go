package e2e

import (
	"strings"
	"testing"
)

// Confirmations that are questions: the agent asking the user (ask_human)
// and a plan the reviewer would not pass. Both are pinned above the input
// and fit the default sidebar (expectConfirmFits), and the answer reaches
// the model.

// The agent asks which database to use, with options; the question is shown
// whole, each option is a button, and the chosen one is the tool's answer.
func TestScenarioAgentAsksAQuestion(t *testing.T) {
	question := "Which database should the service use? The **current** code talks to `database/sql` only, " +
		"so either works; PostgreSQL needs a server, SQLite keeps everything in one file next to the binary."
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "SQLite", On: "tool", Reply: modelReply{Text: "Going with SQLite."}},
		{Match: "which database", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("ask_human", map[string]any{
			"question": question, "options": []string{"PostgreSQL", "SQLite"}})}}},
	}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "Please pick which database to use")
	card := wv.Locator(selConfirmCard + "[data-kind=question]")
	h.expectText(card.Locator("[data-testid=confirm-question]"), "keeps everything in one file next to the binary.")
	h.expectConfirmFits(wv, card, "question-confirmation")
	if err := card.Locator("[data-testid=confirm-option]:has-text('SQLite')").Click(); err != nil {
		t.Fatalf("click the SQLite option: %v", err)
	}
	h.expectNewestInView(wv, "Going with SQLite.")
	if got := lastToolResult(chatRequests(h.Model.recorded(t))); !strings.Contains(got, "SQLite") {
		t.Fatalf("the model was not given the chosen option: %q", got)
	}
}

// Plan review: the reviewer rejects the plan on its only attempt, so the
// user decides, on a card that shows the reviewer's problems and the plan;
// rejecting it tells the model so.
func TestScenarioPlanReviewAsksTheUser(t *testing.T) {
	rejected := `{"approved": false, "problems": [{"severity": "error", "message": "the plan never runs the tests after changing calc.go"}], "suggestion": "add a step that runs go test ./..."}`
	h := newHarness(t, harnessOptions{Extension: true,
		Settings: map[string]any{"govibe.todolistReview.enabled": true, "govibe.todolistReview.maxAttempts": 1},
		ModelRules: modelRules{Rules: []modelRule{
			{Match: "rejected the plan", On: "tool", Reply: modelReply{Text: "I will fix it without a plan."}},
			{Match: "## Plan", On: "user", Reply: modelReply{Text: rejected}},
			{Match: "plan the fix", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("create_todo_list", map[string]any{
				"goal": "Fix Add in calc.go", "items": []string{"Read calc.go and find the bug in Add", "Change the subtraction into an addition"}})}}},
		}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "Please plan the fix for Add")
	card := wv.Locator(selConfirmCard + "[data-kind=question]")
	h.expectText(card, "never runs the tests")
	h.expectText(card, "Change the subtraction into an addition")
	h.expectConfirmFits(wv, card, "plan-review-confirmation")
	if err := card.Locator("[data-testid=confirm-option]:has-text('Reject it')").Click(); err != nil {
		t.Fatalf("click Reject it: %v", err)
	}
	h.expectNewestInView(wv, "I will fix it without a plan.")
}
