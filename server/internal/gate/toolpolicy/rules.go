package toolpolicy

import (
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// roleRule withholds what the role may not use.
func roleRule(s Situation, name string, t tools.Traits) (Reason, bool) {
	switch s.Role {
	case Main:
		// The closing run after a plan may not plan again either, but
		// that is a refusal (Decide), not a withholding.
		if t.Has(tools.JudgesItems) {
			return tr("items are completed by the evaluator while the scheduler runs the plan"), true
		}
	case Executor:
		switch {
		case t.Has(tools.Plans | tools.JudgesItems):
			return tr("executors carry out their item; the evaluator decides whether it is done and changes the plan"), true
		case t.Has(tools.Meta):
			return tr("global compaction runs only in the free phase"), true
		}
	case Evaluator:
		// It reads, checks with commands (its shell runs checks only),
		// and judges the item or changes the plan.
		switch {
		case t.Within(tools.Looks), t.Within(tools.RunsCommands), t.Within(tools.Plans), t.Within(tools.JudgesItems):
		case t.Has(tools.Meta):
			return tr("global compaction runs only in the free phase"), true
		default:
			return tr("evaluators only read and check; they never edit, write or run commands that change anything"), true
		}
	case Reviewer:
		return tr("reviewers judge the proposal they are shown and call no tool"), true
	case Investigator:
		if !t.Within(tools.Looks) {
			return tr("the investigator only reads and searches the workspace"), true
		}
	case CustomAgent:
		if !s.AgentAllTools && !listed(s.AgentTools, name) {
			return tr("this agent's definition does not list this tool"), true
		}
	}
	return Reason{}, false
}

func listed(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// phaseRule withholds what the session's mode does not offer where it
// stands. A phase's own report tools (modes.Phase.Exit) are offered in
// that phase only.
func phaseRule(m modes.Mode, phase, name string, t tools.Traits) (Reason, bool) {
	switch m {
	case modes.Plan:
		if t.Has(tools.Plans) || t.ChangesNothing() {
			return Reason{}, false
		}
		return tr("Plan mode does not allow %s: nothing changes until the proposed plan is run", name), true
	case modes.Phases:
		st := modes.State(phase)
		if st == "" {
			st = modes.Exploring
		}
		if exits(modes.PhaseOf(m, string(st)), name) {
			return Reason{}, false
		}
		return phasesRule(st, name, t)
	case modes.Reconcile:
		return reconcileRule(modes.Step(phase), name, t)
	}
	return Reason{}, false
}

func exits(ph modes.Phase, name string) bool {
	for _, x := range ph.Exit {
		if x == name {
			return true
		}
	}
	return false
}

// phasesRule is each codeCLI state's offer besides its report tools.
func phasesRule(st modes.State, name string, t tools.Traits) (Reason, bool) {
	switch st {
	case modes.Exploring:
		if !t.Within(tools.Looks) {
			return tr("the EXPLORING phase does not allow %s: it reads and searches, then reports its findings", name), true
		}
	case modes.Planning:
		if !t.Within(tools.Reads) {
			return tr("the PLANNING phase does not allow %s: it reads the files it found, then reports a plan", name), true
		}
	case modes.Patching:
		if !t.Within(tools.Looks) && !t.Within(tools.WritesWorkspace) {
			return tr("the PATCHING phase does not allow %s: it changes files step by step, as the plan says", name), true
		}
	case modes.Verifying:
		if !t.Within(tools.Looks) && !t.Within(tools.RunsCommands) {
			return tr("the VERIFYING phase does not allow %s: it runs the checks and reports", name), true
		}
	default:
		return tr("the %s phase does not allow %s: the run has ended", string(st), name), true
	}
	return Reason{}, false
}

// reconcileRule is each reconcile step's offer. Before the loop the model
// drafts the manifest: it reads, and writes the manifest with write_file
// (the path rule keeps it to the manifest).
func reconcileRule(s modes.Step, name string, t tools.Traits) (Reason, bool) {
	switch s {
	case modes.Specifier, modes.Coder:
		if !t.Within(tools.Looks) && !t.Within(tools.WritesWorkspace) && !t.Within(tools.RunsCommands) {
			if s == modes.Specifier {
				return tr("the specifier phase does not allow %s: it reads, writes the tests and runs them", name), true
			}
			return tr("the coder phase does not allow %s: it reads, changes the code and runs the tests", name), true
		}
	case modes.Auditor:
		return tr("the auditor phase does not allow %s: the auditor runs the tests and calls no model", name), true
	default:
		if !t.ChangesNothing() && name != modes.ToolWriteFile {
			return tr("the manifest phase does not allow %s: it reads, then writes the manifest with write_file", name), true
		}
	}
	return Reason{}, false
}
