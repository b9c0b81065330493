package modes

import (
	"fmt"
	"strings"
)

// Mode is a session's working mode.
type Mode string

const (
	Agent     Mode = "agent"     // free → scheduling → free (the default)
	Plan      Mode = "plan"      // read-only; ends by proposing a todo plan
	Phases    Mode = "phases"    // codeCLI: exploring → planning → patching → verifying
	Reconcile Mode = "reconcile" // VibeOS: manifest, then specifier/coder/auditor loops
)

// All lists the modes in picker order.
var All = []Mode{Agent, Plan, Phases, Reconcile}

// Parse reads a mode name; "" is Agent.
func Parse(s string) (Mode, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return Agent, nil
	}
	for _, m := range All {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown mode %q: expected agent, plan, phases or reconcile", s)
}

// Phase is one state of a mode's machine. Which tools it offers is
// decided with every other tool rule in package toolpolicy, from the
// tools' traits; a phase names only its own report tools (Exit).
type Phase struct {
	Name string
	// Exit are the tools whose call ends the phase; a plain reply without
	// one does not (the model is told so, up to MaxNudges times).
	Exit []string
	// MaxNudges bounds the "call your report tool" retries.
	MaxNudges int
	// ReadOnlyShell limits run_shell_command to read-only commands and checks.
	ReadOnlyShell bool
	// AdvancesOnWrite: each successful write ends a plan step (PATCHING).
	AdvancesOnWrite bool
}

// Tool names the modes use: the shell (limited to checks where a phase
// says so), create_todo_list (Plan mode's proposal), write_file (which
// drafts a reconcile manifest), and the report tools Phases mode defines.
const (
	ToolShell          = "run_shell_command"
	ToolCreateTodo     = "create_todo_list"
	ToolWriteFile      = "write_file"
	ToolReportFindings = "report_findings"
	ToolReportPlan     = "report_plan"
	ToolReportBlocked  = "report_blocked"
	ToolReportDone     = "report_done"
)

// planPhase is Plan mode's single phase: it reads (never the shell,
// whose commands may write) and ends with create_todo_list, whose call
// proposes the plan.
var planPhase = Phase{
	Name:      "planning",
	Exit:      []string{ToolCreateTodo},
	MaxNudges: 2,
}

// PhaseOf returns the phase a mode is in; phase names a Phases-mode state
// (ignored by the other modes).
func PhaseOf(m Mode, phase string) Phase {
	switch m {
	case Plan:
		return planPhase
	case Phases:
		return codePhase(State(phase))
	case Reconcile:
		return reconcilePhase(Step(phase))
	}
	return Phase{Name: "agent"}
}
