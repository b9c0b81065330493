package e2e

import (
	"strings"
	"testing"
)

// Plan mode from the header's picker, before any message: the model's
// proposed plan is an editable list; the user renames an item and "Run
// plan" hands the edited list to the scheduler in Agent mode, whose
// executors get the edited item.
func TestScenarioPlanModeEditAndRun(t *testing.T) {
	complete := func(args map[string]any) modelReply {
		return modelReply{ToolCalls: []modelToolCall{toolCall("complete_todo_item", args)}}
	}
	h := newHarness(t, harnessOptions{Extension: true, Settings: map[string]any{"govibe.todolistReview.enabled": false},
		ModelRules: modelRules{Rules: []modelRule{
			{Match: "is done.", On: "tool", Reply: modelReply{Text: "Verified."}},
			{Match: "[scheduler]", On: "user", Reply: modelReply{Text: "Both items are done."}},
			{Match: "[evaluator:1]", On: "user", Reply: complete(map[string]any{"index": 1, "summary": "hello checked"})},
			{Match: "[evaluator:2]", On: "user", Reply: complete(map[string]any{"index": 2, "summary": "farewell checked"})},
			{Match: "[executor:1]", On: "user", Reply: modelReply{Text: "hello is written."}},
			{Match: "[executor:2]", On: "user", Reply: modelReply{Text: "farewell is written."}},
			{Match: "plan the greeting", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("create_todo_list",
				map[string]any{"goal": "Greet", "items": []string{"Write hello", "Write bye"}})}}},
		}}})
	wv := h.openGoVibe()
	picker := wv.Locator(selModePicker)
	h.expectInView(picker, "the mode picker")
	h.pickMode(wv, "plan")
	h.sendChat(wv, "Please plan the greeting")
	editor := wv.Locator(selPlanEditor)
	rows := editor.Locator(selPlanRowTitle)
	if err := h.Expect.Locator(rows).ToHaveCount(2); err != nil {
		t.Fatalf("the proposed plan is not an editable list of two items: %v", err)
	}
	if err := rows.Nth(1).Fill("Write farewell"); err != nil {
		t.Fatal(err)
	}
	h.expectInView(editor.Locator(selPlanRun), "Run plan")
	h.shot("plan-proposed")
	if err := editor.Locator(selPlanRun).Click(); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(picker).ToHaveAttribute("data-value", "agent"); err != nil {
		t.Fatalf("Run plan did not switch to Agent mode: %v", err)
	}
	items := wv.Locator(selTodoPanel).Locator(selTodoItem)
	h.expectText(items.Nth(1), "Write farewell")
	if err := h.Expect.Locator(items.Nth(1)).ToHaveAttribute("data-status", "done"); err != nil {
		t.Fatalf("the edited plan did not run to the end: %v", err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Both items are done.")
	saw := false
	for _, r := range chatRequests(h.Model.recorded(t)) {
		for _, m := range r.Messages {
			if m.Role == "user" && strings.HasPrefix(m.Content, "[executor:2]") && strings.Contains(m.Content, "Write farewell") {
				saw = true
			}
		}
	}
	if !saw {
		t.Fatal("executor 2 was not given the edited item")
	}
}

// Phases mode: the panel follows the machine from EXPLORING to DONE and
// shows the reported plan; it fits the default sidebar width. VERIFYING's
// shell refuses a command that writes (rm), before any confirmation, and
// the chat shows the refusal as the step's rule, not as an error.
func TestScenarioPhasesPanel(t *testing.T) {
	report := func(name string, args map[string]any) modelReply {
		return modelReply{ToolCalls: []modelToolCall{toolCall(name, args)}}
	}
	h := newHarness(t, harnessOptions{Extension: true, Settings: map[string]any{"govibe.autoApprove.edits": true}, ModelRules: modelRules{Rules: []modelRule{
		{Match: "now VERIFYING", On: "tool", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("run_shell_command", map[string]any{"command": "rm calc.go"})}}},
		{Match: "may only run read-only commands", On: "tool", Reply: report("report_done", map[string]any{"text": "calc.go reads right"})},
		// PATCHING offers no report_done: writing the plan's one step
		// moves to VERIFYING.
		{Match: "now PATCHING", On: "tool", Reply: report("read_file", map[string]any{"filePath": "calc.go"})},
		{Match: "File: calc.go", On: "tool", Reply: report("write_file", map[string]any{"filePath": "calc.go", "content": "package calc\n\nfunc Add(a, b int) int { return a + b }\n"})},
		{Match: "now PLANNING", On: "tool", Reply: report("report_plan", map[string]any{"steps": []string{"fix Add in calc.go"}})},
		{Match: "look at calc", On: "user", Reply: report("report_findings", map[string]any{"text": "Add subtracts in calc.go"})},
	}}})
	wv := h.openGoVibe()
	h.pickMode(wv, "phases")
	panel := wv.Locator(selPhasesPanel)
	if err := h.Expect.Locator(panel).ToHaveAttribute("data-state", "EXPLORING"); err != nil {
		t.Fatalf("the Phases panel does not start at EXPLORING: %v", err)
	}
	h.sendChat(wv, "Please look at calc and fix it")
	if err := h.Expect.Locator(panel).ToHaveAttribute("data-state", "DONE"); err != nil {
		t.Fatalf("the panel never reached DONE: %v", err)
	}
	h.expectText(panel.Locator(selPhasePlan), "fix Add in calc.go")
	if err := h.Expect.Locator(panel.Locator(selPhaseChip)).ToHaveCount(5); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		h.expectInView(panel.Locator(selPhaseChip).Nth(i), "a phase chip")
	}
	// VERIFYING's refusal is the step's rule, not a failure: a neutral card
	// that says why, and no error anywhere.
	rm := toolCardNamed(wv, "run_shell_command")
	if err := h.Expect.Locator(rm).ToHaveAttribute("data-status", "withheld"); err != nil {
		t.Fatalf("the rm VERIFYING refused is not a neutral card: %v", err)
	}
	h.expectText(rm.Locator(selToolWithheld), "Not run: the command rm calc.go is not allowed at this step.")
	if err := h.Expect.Locator(wv.Locator("[data-testid=error], .tool-error-line")).ToHaveCount(0); err != nil {
		t.Fatalf("an error is shown for the refused rm: %v", err)
	}
	h.shot("phases-done")
	if out := gitStatus(t, h.Workspace); strings.TrimSpace(out) != "M calc.go" {
		t.Fatalf("the workspace after PATCHING's write and VERIFYING's refused rm:\n%s", out)
	}
}
