package agent

import (
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
)

// Each role, and the main agent in each mode and phase, gets its own
// contract: two to four lines that open the system prompt and say what
// the run is, what ends it and what the user sees. Like the guidance, a
// line naming a tool (in backticks) is kept only when the run is offered
// that tool; its alternative (alt) is used otherwise.

type contractLine struct {
	text, alt string
}

// contract is the opening lines for the run in s.
func contract(s toolpolicy.Situation, o offeredSet) string {
	var lines []contractLine
	switch s.Role {
	case toolpolicy.Executor:
		lines = []contractLine{
			{text: "You are an executor: you carry out the one todo item the last user message gives. When it is done, reply without a tool call; an evaluator then checks it, and the user follows the plan's progress."},
			{text: "Reads from before that message do not count: read a file since the last user message before you `edit` it."},
		}
	case toolpolicy.Evaluator:
		lines = []contractLine{{
			text: "You are an evaluator: you check the todo item the last user message gives against its acceptance criteria, and change nothing. Call `complete_todo_item` when it is done; otherwise reply with your findings, which the executor gets for its next attempt. The user sees your verdict.",
			alt:  "You are an evaluator: you check the todo item the last user message gives against its acceptance criteria, and change nothing; reply with your findings. The user sees your verdict.",
		}}
	case toolpolicy.Investigator, toolpolicy.CustomAgent:
		lines = []contractLine{{text: "You are a sub-agent: do the task the last user message gives, then reply with the result, which goes to the agent that called you."}}
	case toolpolicy.Reviewer:
		lines = []contractLine{{text: "You are a reviewer: judge the proposal you are shown and answer with your verdict."}}
	default:
		lines = mainContract(s)
	}
	var b strings.Builder
	for _, l := range lines {
		text := l.text
		if !o.hasAll(text) {
			text = l.alt
		}
		if text != "" {
			b.WriteString(text + "\n")
		}
	}
	return b.String()
}

// mainContract is the main agent's, by mode and phase. The closing run
// after a plan has the same one: its request extends the main agent's, so
// the provider's cached prefix holds; what it must do (sum up, not plan
// again) is in its user message (scheduler.FinalPrompt), and the policy
// refuses the plan tool.
func mainContract(s toolpolicy.Situation) []contractLine {
	switch s.Mode {
	case modes.Plan:
		return []contractLine{{
			text: "Plan mode: investigate and propose a plan; nothing in the workspace changes. Calling `create_todo_list` proposes it and ends your turn: the user reviews the plan, then runs it or asks you to change it.",
			alt:  "Plan mode: investigate and propose a plan; nothing in the workspace changes. Reply with the plan as a numbered list, which ends your turn: the user reviews it.",
		}}
	case modes.Phases:
		return phasesContract(s.Phase)
	case modes.Reconcile:
		switch modes.Step(s.Phase) {
		case modes.Specifier:
			return []contractLine{{text: "You are the specifier of a Reconcile loop: write the tests the manifest asks for and run them, then reply. The coder makes them pass next; the user sees each loop's progress."}}
		case modes.Coder:
			return []contractLine{{text: "You are the coder of a Reconcile loop: change the code until the manifest's tests pass, then reply. The auditor runs the tests next; the user sees each loop's progress."}}
		case modes.Auditor:
			return []contractLine{{text: "You are the auditor of a Reconcile loop: the tests decide."}}
		}
		return []contractLine{{
			text: "Reconcile mode: turn the user's intent into a manifest and save it with `write_file`, the only file you may write; then reply, which ends your turn. The user reviews and approves the manifest; its loop then writes tests and code until they pass.",
			alt:  "Reconcile mode: turn the user's intent into a manifest and reply with it, which ends your turn. The user reviews and approves it.",
		}}
	}
	return []contractLine{{text: "Agent mode: do what the user asks. Your turn ends when you reply without a tool call; the user sees your replies and each tool call, and approves changes and commands."}}
}

// phasesContract says where a Phases run stands and how its phase ends.
func phasesContract(phase string) []contractLine {
	st := modes.State(phase)
	if st == "" {
		st = modes.Exploring
	}
	ph := modes.PhaseOf(modes.Phases, string(st))
	intro := contractLine{text: "Phases mode runs four phases in order: EXPLORING (read and search), PLANNING (read, then give the steps), PATCHING (change the files step by step), VERIFYING (run the checks). The user sees each phase and report in the Phases panel."}
	if len(ph.Exit) == 0 {
		return []contractLine{intro, {text: fmt.Sprintf("The run has ended (%s): tell the user how it went.", st)}}
	}
	ends := "A plain reply does not end it: call " + codeList(ph.Exit, " or ") + "."
	if ph.AdvancesOnWrite {
		ends = "Each successful write moves the plan to its next step; call " + codeList(ph.Exit, " or ") + " if a step cannot be done. A plain reply ends nothing."
	}
	return []contractLine{intro, {
		text: fmt.Sprintf("You are in %s. %s", st, ends),
		alt:  fmt.Sprintf("You are in %s.", st),
	}}
}
