package toolpolicy

import (
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Where is every mode and phase a run can stand in.
var Where = []struct {
	Mode  modes.Mode
	Phase string
}{
	{modes.Agent, ""}, {modes.Plan, ""},
	{modes.Phases, ""}, {modes.Phases, string(modes.Planning)}, {modes.Phases, string(modes.Patching)},
	{modes.Phases, string(modes.Verifying)}, {modes.Phases, string(modes.Done)}, {modes.Phases, string(modes.Failed)},
	{modes.Reconcile, ""}, {modes.Reconcile, string(modes.Specifier)}, {modes.Reconcile, string(modes.Coder)},
	{modes.Reconcile, string(modes.Auditor)},
}

// Situations is every combination Decide distinguishes, for tests that
// walk every decision (the policy's own, and the prompt's guidance,
// which must never name a tool a run is not offered): each role, mode and
// phase, profile kind (and an explicit list, and one naming no tool),
// a command's allowedTools or none, closing run, side conversation,
// sandbox and headless state.
func Situations() []Situation {
	var out []Situation
	var profiles []Profile
	for _, ps := range []string{"full", "readonly", "no-shell", "read_file,edit,run_shell_command", "nothing_real"} {
		p, _ := ParseProfile(ps)
		profiles = append(profiles, p)
	}
	// A custom agent's list: the first built-in tool that reads, the
	// first that writes and the first that asks.
	var agentTools []string
	var have tools.Traits
	for _, t := range tools.Builtin() {
		for _, tr := range []tools.Traits{tools.Reads, tools.WritesWorkspace, tools.AsksHuman} {
			if t.Traits().Has(tr) && !have.Has(tr) {
				have |= tr
				agentTools = append(agentTools, t.Name())
			}
		}
	}
	commands := []func(string) bool{nil, func(n string) bool { return n == "read_file" || n == modes.ToolCreateTodo }}
	for _, r := range Roles {
		for _, w := range Where {
			for _, p := range profiles {
				for _, cmd := range commands {
					for flags := range 16 {
						out = append(out, Situation{Role: r, Mode: w.Mode, Phase: w.Phase, Profile: p, Command: cmd,
							Final: flags&1 != 0, BTW: flags&2 != 0, Sandbox: flags&4 != 0, Headless: flags&8 != 0,
							AgentTools: agentTools})
					}
				}
			}
		}
	}
	return out
}
