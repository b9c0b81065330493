package moderun

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/gate/shellcheck"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Phases mode (codeCLI) on the engine's one agent loop: each run offers
// the current state's tools, and its report tools both record progress
// (session state, a mode event for the panel) and stop the run, so the
// next run is assembled with the next state's whitelist. The turn drives
// the runs (ContinuePhases).

// reportTool is one of report_findings, report_plan, report_blocked and
// report_done.
type reportTool struct {
	m      *Modes
	sid    string
	name   string
	desc   string
	schema string
}

func (r *reportTool) Name() string            { return r.name }
func (r *reportTool) Description() string     { return r.desc }
func (r *reportTool) Schema() json.RawMessage { return json.RawMessage(r.schema) }
func (r *reportTool) ReadOnly() bool          { return false }

// Traits: a report moves the mode's machine on.
func (r *reportTool) Traits() tools.Traits { return tools.Reports }

func (r *reportTool) Run(ctx context.Context, env *tools.Env, args json.RawMessage) (tools.Result, error) {
	var a struct {
		Text  string   `json:"text"`
		Steps []string `json:"steps"`
		Step  string   `json:"step"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.FailShown("invalid arguments: "+err.Error(), env.Tr("%s was called with arguments that are not a JSON object.", r.name)), nil
	}
	p := r.m.Progress(ctx, r.sid)
	if err := p.Apply(modes.Report{Tool: r.name, Text: a.Text, Steps: a.Steps, StepKey: a.Step}); err != nil {
		return tools.FailShown(err.Error(), env.Tr("The report of this step was not accepted: %v", err)), nil
	}
	if err := sessionstate.Set(ctx, r.m.store, r.sid, modes.PhaseProgressKey, p); err != nil {
		return tools.Result{}, err
	}
	r.m.host.Publish(r.sid, "", Panel{Phases: &p})
	return tools.Result{OK: true, Output: fmt.Sprintf("Recorded. The phase is now %s.", p.State)}, nil
}

const textSchema = `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`

func (m *Modes) reportTools(sid string) []tools.Tool {
	mk := func(name, desc, schema string) tools.Tool {
		return &reportTool{m: m, sid: sid, name: name, desc: desc, schema: schema}
	}
	return []tools.Tool{
		mk(modes.ToolReportFindings, "End the EXPLORING phase: report what you found (files, causes, constraints) in text.", textSchema),
		mk(modes.ToolReportPlan, "End the PLANNING phase: report the ordered steps of the patch.",
			`{"type":"object","properties":{"steps":{"type":"array","items":{"type":"string"},"minItems":1}},"required":["steps"],"additionalProperties":false}`),
		mk(modes.ToolReportBlocked, "Report that the current step cannot go on, and why (text); in VERIFYING, that the checks fail, which returns to PATCHING to fix them. Three reports on one step fail the run.",
			`{"type":"object","properties":{"text":{"type":"string"},"step":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
		mk(modes.ToolReportDone, "End the VERIFYING phase: the checks pass; text says which.", textSchema),
	}
}

// modeTools are the tools a mode adds to a run (the report tools in
// Phases mode; nothing otherwise, so other modes' tool lists stay as they were).
func (m *Modes) modeTools(sid string, md modes.Mode) []tools.Tool {
	if md != modes.Phases {
		return nil
	}
	return m.reportTools(sid)
}

// advanceOnWrites makes each successful write in PATCHING patch the
// current plan step (codeCLI: write_file moves the plan on); writing the
// last step's moves to VERIFYING, and StopWhen ends the run there.
func (m *Modes) advanceOnWrites(ctx context.Context, sid string, md modes.Mode, ts []tools.Tool) []tools.Tool {
	if md != modes.Phases || !m.phase(ctx, sid, md).AdvancesOnWrite {
		return ts
	}
	for i, t := range ts {
		if tools.WritesOneFile(t) {
			ts[i] = pathGuard{Tool: t, rule: func(string) error { return nil }, note: func(ctx context.Context, p string) string {
				pr := m.Progress(ctx, sid)
				if err := pr.Apply(modes.Report{Tool: modes.ToolWrote, Text: p}); err != nil {
					return ""
				}
				if err := sessionstate.Set(ctx, m.store, sid, modes.PhaseProgressKey, pr); err != nil {
					return ""
				}
				m.host.Publish(sid, "", Panel{Phases: &pr})
				if pr.State == modes.Verifying {
					return fmt.Sprintf("All %d plan steps are patched: the phase is now VERIFYING.", len(pr.Plan))
				}
				return fmt.Sprintf("Step %d of the plan is patched; next: %s", pr.Step, pr.Plan[pr.Step])
			}}
		}
	}
	return ts
}

// repeatGuard refuses, in Phases mode, a call identical (name and
// arguments) to one already made in the same phase of the same turn: the
// codeCLI rule against a model looping on the same step. A nudge after a
// plain reply starts another run of the same phase, so the calls seen
// are the session's (calls), not the run's.
type repeatGuard struct {
	tools.Tool
	m   *Modes
	sid string
}

// phaseCalls are the calls made in one phase of one turn.
type phaseCalls struct {
	mu    sync.Mutex
	turn  string
	state modes.State
	seen  map[string]bool
}

func (g repeatGuard) Run(ctx context.Context, env *tools.Env, args json.RawMessage) (tools.Result, error) {
	v, _ := g.m.calls.LoadOrStore(g.sid, &phaseCalls{})
	pc := v.(*phaseCalls)
	state := g.m.Progress(ctx, g.sid).State
	key := g.Name() + "\x00" + string(args)
	pc.mu.Lock()
	if pc.turn != env.TurnID || pc.state != state {
		pc.turn, pc.state, pc.seen = env.TurnID, state, map[string]bool{}
	}
	dup := pc.seen[key]
	pc.seen[key] = true
	pc.mu.Unlock()
	if dup {
		return tools.FailShown("This exact call was already made in this phase; its result is above. Do something different, or report.",
			env.Tr("Not run: the same call was already made in this step.")), nil
	}
	return g.Tool.Run(ctx, env, args)
}

// guardRepeats wraps every tool of a Phases-mode run with the repeat guard.
func (m *Modes) guardRepeats(sid string, md modes.Mode, ts []tools.Tool) []tools.Tool {
	if md != modes.Phases {
		return ts
	}
	for i, t := range ts {
		ts[i] = repeatGuard{Tool: t, m: m, sid: sid}
	}
	return ts
}

// ChecksOnlyShell is run_shell_command limited to what the shell analysis
// classifies read-only, or a check (test runner, linter, type checker run
// without options that write). The Phases mode's VERIFYING state and the
// reconcile agents use it: there, files change only through the write
// tools, whose path rules hold. who names the agent in a refusal ("the
// VERIFYING phase", "the coder").
func ChecksOnlyShell(t tools.Tool, roots []string, who string) tools.Tool {
	return tools.GuardedShell{Tool: t, Roots: roots, Allow: func(command string, ws shellcheck.Workspace) (bool, string) {
		an := shellcheck.Analyze(command, ws)
		if shellcheck.OnlyChecks(an) {
			return true, ""
		}
		why := who + " may only run read-only commands or checks (tests, linters, git status); this one is " + an.Class.String()
		if len(an.Reasons) > 0 {
			why += " (" + strings.Join(an.Reasons, "; ") + ")"
		}
		return false, why
	}}
}
