package modes

import (
	"fmt"
	"strings"
)

// State is a Phases-mode (codeCLI) state.
type State string

const (
	Exploring State = "EXPLORING"
	Planning  State = "PLANNING"
	Patching  State = "PATCHING"
	Verifying State = "VERIFYING"
	Done      State = "DONE"
	Failed    State = "FAILED"
)

// MaxBlocked is how many report_blocked calls on one step mean FAILED.
const MaxBlocked = 3

// codePhase is each codeCLI state: the report tools that end it (what
// else it offers is toolpolicy's: EXPLORING reads and searches, PLANNING
// reads, PATCHING also writes, VERIFYING also runs checks).
func codePhase(s State) Phase {
	switch s {
	case "", Exploring:
		return Phase{Name: string(Exploring), Exit: []string{ToolReportFindings}, MaxNudges: 3}
	case Planning:
		return Phase{Name: string(Planning), Exit: []string{ToolReportPlan}, MaxNudges: 3}
	case Patching:
		// As codeCLI: a write moves the plan on (ToolWrote), and writing
		// the last step's moves to VERIFYING; report_blocked says a step
		// cannot be done.
		return Phase{Name: string(Patching), Exit: []string{ToolReportBlocked}, MaxNudges: 3, AdvancesOnWrite: true}
	case Verifying:
		return Phase{Name: string(Verifying), Exit: []string{ToolReportDone, ToolReportBlocked}, MaxNudges: 3, ReadOnlyShell: true}
	}
	// DONE and FAILED offer nothing: the machine has ended.
	return Phase{Name: string(s)}
}

// Progress is a Phases run's record, kept outside the conversation (in
// session state) and published for a panel.
type Progress struct {
	State    State          `json:"state"`
	Findings string         `json:"findings,omitempty"`
	Plan     []string       `json:"plan,omitempty"`
	Step     int            `json:"step"`              // index into Plan being patched
	Blocked  map[string]int `json:"blocked,omitempty"` // report_blocked count per step
	Log      []string       `json:"log,omitempty"`     // what each transition said
	Reason   string         `json:"reason,omitempty"`  // why FAILED
}

// ToolWrote is not a tool: it is the report a successful write makes in
// PATCHING (Text: the file), which patches the current plan step.
const ToolWrote = "wrote"

// Report is one report tool call.
type Report struct {
	Tool    string
	Text    string   // findings, summary or blocker
	Steps   []string // report_plan's steps
	StepKey string   // report_blocked: which step (defaults to the current one)
}

// Apply moves the machine on a report and returns why a report was
// refused (the state is unchanged then). A report tool belongs to its
// phase: calling another phase's is refused, as the whitelist does.
func (p *Progress) Apply(r Report) error {
	if p.State == "" {
		p.State = Exploring
	}
	ph := codePhase(p.State)
	if r.Tool == ToolWrote {
		if !ph.AdvancesOnWrite {
			return nil // a write outside PATCHING moves nothing (and is refused there anyway)
		}
		p.Log = append(p.Log, fmt.Sprintf("step %d/%d patched: %s", p.Step+1, len(p.Plan), r.Text))
		if p.Step++; p.Step >= len(p.Plan) {
			p.Step = len(p.Plan) - 1
			p.to(Verifying, fmt.Sprintf("all %d steps patched", len(p.Plan)))
		}
		return nil
	}
	if !contains(ph.Exit, r.Tool) {
		return fmt.Errorf("%s is not a report of the %s phase (expected %s)", r.Tool, p.State, strings.Join(ph.Exit, " or "))
	}
	switch r.Tool {
	case ToolReportFindings:
		if strings.TrimSpace(r.Text) == "" {
			return fmt.Errorf("report_findings needs the findings")
		}
		p.Findings = r.Text
		p.to(Planning, "findings reported")
	case ToolReportPlan:
		if len(r.Steps) == 0 {
			return fmt.Errorf("report_plan needs at least one step")
		}
		p.Plan, p.Step = r.Steps, 0
		p.to(Patching, fmt.Sprintf("plan of %d steps", len(r.Steps)))
	case ToolReportBlocked:
		key := r.StepKey
		if key == "" {
			key = fmt.Sprintf("%s#%d", p.State, p.Step)
		}
		if p.Blocked == nil {
			p.Blocked = map[string]int{}
		}
		p.Blocked[key]++
		p.Log = append(p.Log, fmt.Sprintf("blocked on %s (%d/%d): %s", key, p.Blocked[key], MaxBlocked, r.Text))
		if p.Blocked[key] >= MaxBlocked {
			p.Reason = r.Text
			p.to(Failed, fmt.Sprintf("blocked %d times on %s", MaxBlocked, key))
		} else if p.State == Verifying {
			// The checks fail: back to patching the last step, whose
			// next write returns here.
			p.to(Patching, "verification blocked: "+r.Text)
		}
	case ToolReportDone:
		p.to(Done, "verified: "+r.Text)
	}
	return nil
}

// Ended says whether the machine reached DONE or FAILED.
func (p *Progress) Ended() bool { return p.State == Done || p.State == Failed }

func (p *Progress) to(s State, why string) {
	p.Log = append(p.Log, fmt.Sprintf("%s → %s: %s", p.State, s, why))
	p.State = s
}

// Nudge is what the model is told when it replies without its phase's
// report tool: the reply does not end the phase.
func Nudge(ph Phase) string {
	if ph.AdvancesOnWrite {
		return fmt.Sprintf("You are in the %s phase. A plain reply does not end it: write the plan's remaining steps (each write moves the plan on), or call %s.",
			ph.Name, strings.Join(ph.Exit, " or "))
	}
	return fmt.Sprintf("You are in the %s phase. A plain reply does not end it: call %s to report and move on.",
		ph.Name, strings.Join(ph.Exit, " or "))
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
