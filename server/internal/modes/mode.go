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

// ToolInfo is what a whitelist decision needs to know about a tool.
type ToolInfo struct {
	Name     string
	ReadOnly bool
}

// Phase is one state of a mode's machine.
type Phase struct {
	Name string
	// Allow says whether the phase offers a tool; nil offers every tool.
	Allow func(ToolInfo) bool
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

// Blocked returns, for each tool the phase does not offer, why. The agent
// loop neither offers these nor runs them when called anyway.
func (p Phase) Blocked(ts []ToolInfo) map[string]string {
	out := map[string]string{}
	if p.Allow == nil {
		return out
	}
	for _, t := range ts {
		if !p.Allow(t) {
			out[t.Name] = fmt.Sprintf("the %s phase does not allow %s", p.Name, t.Name)
		}
	}
	return out
}

// Tool names the modes decide on.
const (
	ToolShell          = "run_shell_command"
	ToolCreateTodo     = "create_todo_list"
	ToolReportFindings = "report_findings"
	ToolReportPlan     = "report_plan"
	ToolReportBlocked  = "report_blocked"
	ToolReportDone     = "report_done"
)

var reportTools = map[string]bool{ToolReportFindings: true, ToolReportPlan: true, ToolReportBlocked: true, ToolReportDone: true}

// reads are the tools that only look: reading, listing and searching.
var reads = map[string]bool{
	"read_file": true, "find_in_file": true, "list_files": true, "glob": true, "grep_search": true,
	"get_workspace_info": true, "get_file_info": true, "text_diff": true, "get_diagnostics": true,
}

var listSearch = map[string]bool{"list_files": true, "glob": true, "grep_search": true, "find_in_file": true, "get_workspace_info": true}

var writes = map[string]bool{"write_file": true, "edit": true, "create_directory": true, "delete_file": true}

func only(names ...string) func(ToolInfo) bool {
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return func(t ToolInfo) bool { return set[t.Name] }
}

func or(fs ...func(ToolInfo) bool) func(ToolInfo) bool {
	return func(t ToolInfo) bool {
		for _, f := range fs {
			if f(t) {
				return true
			}
		}
		return false
	}
}

func in(set map[string]bool) func(ToolInfo) bool { return func(t ToolInfo) bool { return set[t.Name] } }

// planPhase is Plan mode's single phase: tools that declare themselves
// read-only (never the shell, whose commands may write) plus
// create_todo_list, whose call ends the phase with the proposed plan.
var planPhase = Phase{
	Name: "planning",
	Allow: func(t ToolInfo) bool {
		return t.Name == ToolCreateTodo || (t.ReadOnly && !reportTools[t.Name])
	},
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
