package e2e

import (
	"strings"
	"testing"
)

// Todo panel: a plan made with create_todo_list appears in the panel and its
// items tick over as the scheduler's executor and evaluator handle each.
func TestScenarioTodoPanelTicksOver(t *testing.T) {
	complete := func(args map[string]any) modelReply {
		return modelReply{ToolCalls: []modelToolCall{toolCall("complete_todo_item", args)}}
	}
	// Executors answer slowly enough for the panel to show their item running.
	slow := func(text string) modelReply {
		return modelReply{Text: strings.Repeat("Working on it. ", 20) + text, ChunkSize: 8, ChunkDelayMS: 60}
	}
	// Each agent's prompt starts with its tag; the final phase's with
	// [scheduler]. It may quote earlier agents, so it is matched first.
	h := newHarness(t, harnessOptions{Extension: true, Settings: map[string]any{"govibe.todolistReview.enabled": false},
		ModelRules: modelRules{Rules: []modelRule{
			{Match: "is done.", On: "tool", Reply: modelReply{Text: "Verified."}},
			{Match: "[scheduler]", On: "user", Reply: modelReply{Text: "Both items are done."}},
			{Match: "[evaluator:1]", On: "user", Reply: complete(map[string]any{"index": 1, "summary": "A checked"})},
			{Match: "[evaluator:2]", On: "user", Reply: complete(map[string]any{"index": 2, "summary": "B checked"})},
			{Match: "[executor:1]", On: "user", Reply: slow("Item A is written.")},
			{Match: "[executor:2]", On: "user", Reply: slow("Item B is written.")},
			{Match: "plan two things", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("create_todo_list",
				map[string]any{"goal": "Two small things", "items": []string{"Write A", "Write B"}})}}},
		}}})
	wv := h.openGoVibe()

	h.sendChat(wv, "Please plan two things")
	panel := wv.Locator(selTodoPanel)
	h.expectText(panel.Locator(selTodoGoal), "Two small things")
	items := panel.Locator(selTodoItem)
	if err := h.Expect.Locator(items).ToHaveCount(2); err != nil {
		t.Fatalf("the todo panel does not list the plan's two items: %v", err)
	}
	h.expectText(items.Nth(0), "Write A")
	h.expectText(items.Nth(1), "Write B")

	step := func(i int, status, what string) {
		t.Helper()
		if err := h.Expect.Locator(items.Nth(i)).ToHaveAttribute("data-status", status); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	step(0, "running", "item 1 never showed running")
	step(1, "pending", "item 2 did not wait while item 1 ran")
	step(0, "done", "item 1 never ticked over to done")
	step(1, "running", "item 2 never showed running")
	step(1, "done", "item 2 never ticked over to done")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Both items are done.")
	// The scheduler's closing prompt reaches the model as a user message;
	// the chat shows it as a muted line, never as the user's words, live
	// and after a reload.
	noSchedulerBubbles := func(when string) {
		t.Helper()
		h.expectText(wv.Locator("[data-testid=engine-line][data-origin=plan-final]"), "Plan finished")
		users, _ := wv.Locator(selUserMessage).AllTextContents()
		for _, u := range users {
			if strings.Contains(u, "[scheduler]") || strings.Contains(u, "[executor:") || strings.Contains(u, "[evaluator:") {
				h.shot("scheduler-prompt-as-user")
				t.Fatalf("%s: an engine prompt shows as a user message: %q", when, u)
			}
		}
	}
	noSchedulerBubbles("live")
	h.shot("plan-finished-line")
	h.runCommand("Developer: Reload Window")
	if err := h.Expect.Locator(h.Page.Locator(selWorkbench)).ToBeVisible(); err != nil {
		t.Fatalf("the workbench did not come back after the reload: %v", err)
	}
	wv = h.reopenedGoVibe()
	h.awaitServerReady(wv)
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Both items are done.")
	noSchedulerBubbles("after a reload")
	h.shot("plan-finished-after-reload")

	var agents []string
	for _, r := range chatRequests(h.Model.recorded(t)) {
		for _, m := range r.Messages {
			if m.Role == "user" && strings.HasPrefix(m.Content, "[") {
				agents = append(agents, strings.SplitN(m.Content, "]", 2)[0]+"]")
			}
		}
	}
	if joined := strings.Join(agents, " "); !strings.Contains(joined, "[executor:1]") || !strings.Contains(joined, "[evaluator:2]") {
		t.Fatalf("the scheduler did not run an executor and an evaluator per item; agent prompts seen: %v", agents)
	}
	if out := gitStatus(t, h.Workspace); out != "" {
		t.Fatalf("the plan changed the workspace although no item wrote anything:\n%s", out)
	}
}
