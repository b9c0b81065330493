package scheduler

import (
	"fmt"
	"strings"
)

// ExecutorPrompt is an executor's first message: it names the item, the
// goal and the acceptance criteria, and carries the evaluator's findings
// on a retry.
func ExecutorPrompt(p *Plan, i int) string {
	it := p.Items[i]
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] You are the executor for todo item %s.\n", Tag(RoleExecutor, i), p.Describe(i))
	fmt.Fprintf(&b, "Goal of the plan: %s\n", p.Goal)
	fmt.Fprintf(&b, "Item: %s\n", it.Title)
	if it.Description != "" {
		fmt.Fprintf(&b, "Description: %s\n", it.Description)
	}
	if it.Acceptance != "" {
		fmt.Fprintf(&b, "Acceptance criteria: %s\n", it.Acceptance)
	}
	if it.Attempts > 0 && it.Findings != "" {
		fmt.Fprintf(&b, "This is attempt %d. The evaluator sent the item back with these findings:\n%s\n", it.Attempts+1, it.Findings)
	}
	b.WriteString("Do this item only, using the tools. You cannot complete items or change the plan: an evaluator checks your work after you finish. " +
		"When the item is done, reply without calling any tool and say what you did.")
	return b.String()
}

// EvaluatorPrompt is an evaluator's first message.
func EvaluatorPrompt(p *Plan, i int, lim Limits) string {
	lim = lim.Normalized()
	it := p.Items[i]
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] You are the evaluator for todo item %s.\n", Tag(RoleEvaluator, i), p.Describe(i))
	fmt.Fprintf(&b, "Goal of the plan: %s\n", p.Goal)
	fmt.Fprintf(&b, "Item: %s\n", it.Title)
	if it.Description != "" {
		fmt.Fprintf(&b, "Description: %s\n", it.Description)
	}
	if it.Acceptance != "" {
		fmt.Fprintf(&b, "Acceptance criteria: %s\n", it.Acceptance)
	}
	fmt.Fprintf(&b, "Attempt %d of %d. The executor's report is above.\n", it.Attempts, lim.MaxAttempts())
	b.WriteString("Check the acceptance criteria with read-only tools (you may run read-only commands such as the tests). You cannot edit files. Then decide:\n" +
		fmt.Sprintf("- done: call complete_todo_item with index %d and a summary of what you verified;\n", i+1) +
		"- not done: reply without calling a tool, stating your findings; the executor gets them and tries again;\n" +
		"- the plan must change: call create_todo_list with the remaining items (insert or drop), or with expandIndex to split an item.\n" +
		"End with a reply that calls no tool.")
	return b.String()
}

// ResumePrompt continues an interrupted agent that has no new user text.
func ResumePrompt(p *Plan, s Step) string {
	return fmt.Sprintf("[%s] The run was interrupted. Continue as the %s for todo item %s where you left off.", s.Tag(), s.Role, p.Describe(s.Index))
}

// FinalPrompt opens the closing free phase.
func FinalPrompt(p *Plan) string {
	var b strings.Builder
	b.WriteString("[scheduler] Every todo item has been handled. Results:\n")
	for i, it := range p.Items {
		fmt.Fprintf(&b, "%d. %s — %s", i+1, it.Title, it.Status)
		if it.Summary != "" {
			fmt.Fprintf(&b, ": %s", it.Summary)
		}
		b.WriteString("\n")
	}
	b.WriteString("Summarise for the user what was done, what failed and why. Do not start a new plan.")
	return b.String()
}
