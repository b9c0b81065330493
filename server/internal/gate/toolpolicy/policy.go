package toolpolicy

import (
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Role is whom a run is for.
type Role string

const (
	// Main is the session's own agent: the free phase of a turn, and the
	// reconcile loop's scoped agents (with Mode Reconcile and their step).
	Main Role = "main"
	// Executor carries out one item of a todo plan.
	Executor Role = "executor"
	// Evaluator checks an item and decides whether it is done.
	Evaluator Role = "evaluator"
	// Reviewer judges a proposal it is shown; it calls no tool.
	Reviewer Role = "reviewer"
	// Investigator is investigate's read-only sub-agent.
	Investigator Role = "investigator"
	// CustomAgent is an agent_<name> sub-agent: the tools its definition
	// lists (Situation.AgentTools).
	CustomAgent Role = "agent"
)

// Roles lists every role, for tests that walk every decision.
var Roles = []Role{Main, Executor, Evaluator, Reviewer, Investigator, CustomAgent}

// Situation is everything a run's tools depend on besides the tools.
type Situation struct {
	Role Role
	// Final marks the main agent's closing run after a plan, which sums
	// up and may not plan again.
	Final bool
	// Mode and Phase are the session's working mode and where it
	// stands: a Phases state ("" is EXPLORING) or a reconcile step (""
	// drafts the manifest). They narrow the main agent's runs; a plan's
	// agents follow their role (a plan runs after Plan mode hands over,
	// and Phases and Reconcile make none).
	Mode  modes.Mode
	Phase string
	// Profile is the model profile's toolProfile.
	Profile Profile
	// Command says which tools the custom command that started the turn
	// allows; nil when it names none (every tool).
	Command func(name string) bool
	// AgentTools is a custom agent's definition's list; AgentAllTools
	// gives it every tool (a Claude Code agent without a tools line).
	AgentTools    []string
	AgentAllTools bool
	// BTW: the turn is a side conversation, which never starts a plan.
	BTW bool
	// Headless: no editor is attached (govibe exec), so a tool whose
	// answer comes from the editor would always fail.
	Headless bool
	// Sandbox: the OS sandbox confines commands. No tool's offer depends
	// on it today (a command is refused or confined when it runs); it is
	// carried so that a rule that does is written here.
	Sandbox bool
}

// Decision is what a run offers and refuses.
type Decision struct {
	// Blocked tools are not offered, and refused if called anyway.
	Blocked map[string]Reason
	// Refused tools stay offered, so the request's tool definitions are
	// the main conversation's, and are refused when called.
	Refused map[string]Reason
	// Deferred tools are offered behind one entry (tools.Offer), not with
	// their schemas: those with the Deferred trait that no list (the
	// profile's, the command's allowedTools, a custom agent's definition)
	// names, since a list that names a tool chose it for the run.
	Deferred map[string]bool
	// Prompted are the tools the system prompt's guidance may name: the
	// offered ones, in the order given. A side conversation's refused
	// plan tool is among them, so its prompt, like its tool definitions,
	// is the main conversation's and the prefix cache keeps hitting.
	Prompted []tools.Tool
}

// Offered is ts without the blocked tools, in order.
func (d Decision) Offered(ts []tools.Tool) []tools.Tool {
	out := make([]tools.Tool, 0, len(ts))
	for _, t := range ts {
		if _, no := d.Blocked[t.Name()]; !no {
			out = append(out, t)
		}
	}
	return out
}

// Decide is the one tool policy: for each of ts, whether the run in s
// offers it, and if not, why. The first rule that withholds a tool gives
// its reason, in this order: the role, the editor's absence, the profile,
// the command's allowedTools, the mode's phase, a side conversation, the
// closing run after a plan (the last two refuse calls but keep offering
// the main agent's tools, so its requests keep their cached prefix).
func Decide(s Situation, ts []tools.Tool) Decision {
	d := Decision{Blocked: map[string]Reason{}, Refused: map[string]Reason{}, Deferred: map[string]bool{}, Prompted: []tools.Tool{}}
	profile := s.Profile.effective(ts)
	for _, t := range ts {
		name, traits := t.Name(), t.Traits()
		why, ok := roleRule(s, name, traits)
		// A sub-agent tool carries its tools' traits; its own run drops
		// what needs the editor.
		if !ok && s.Headless && traits.Has(tools.FromEditor) && !traits.Has(tools.StartsSubAgent) {
			why, ok = tr("no editor is attached (headless run): run the build or linter with the shell instead"), true
		}
		// A mode's own report tools are how its phase ends: the profile
		// and the command's list, which speak of the workspace's tools,
		// never take them away.
		own := traits.Within(tools.Reports)
		if !ok && !own && !profile.Allows(name, traits) {
			why, ok = tr("not offered by this model's tool profile (%s)", profile.String()), true
		}
		if !ok && !own && s.Command != nil && !s.Command(name) {
			why, ok = tr("the command that started this turn does not allow this tool (its allowedTools)"), true
		}
		btw := s.BTW && traits.Has(tools.Plans)
		if !ok && (s.Role == Main) {
			why, ok = phaseRule(s.Mode, s.Phase, name, traits)
		}
		switch {
		case ok:
			d.Blocked[name] = why
		case btw && s.Role == Main:
			// The free run keeps offering it: the side conversation's
			// requests share the main one's tool definitions.
			d.Refused[name] = tr("a side conversation (btw) never starts a todo plan")
		case btw:
			d.Blocked[name] = tr("a side conversation (btw) never starts a todo plan")
		case s.Final && s.Role == Main && traits.Has(tools.Plans):
			// The closing run after a plan keeps offering the plan tools:
			// its request extends the main agent's, tool definitions and
			// all, so the provider's cached prefix still holds.
			d.Refused[name] = tr("the plan has just finished; summarise the results instead of planning again")
		case traits.Has(tools.Deferred) && !s.names(profile, name):
			d.Deferred[name] = true
		}
		if _, blocked := d.Blocked[name]; !blocked {
			d.Prompted = append(d.Prompted, t)
		}
	}
	return d
}

// Request is what a request shows of ts: the offered tools, the deferred
// ones behind their entry (tools.Offer).
func (d Decision) Request(ts []tools.Tool) []tools.Tool {
	return tools.Offer(d.Offered(ts), d.Deferred)
}

// names says whether a list chose the tool called name for this run: the
// profile's, the command's allowedTools or a custom agent's definition.
func (s Situation) names(p Profile, name string) bool {
	return p.Kind == ProfileList || s.Command != nil ||
		s.Role == CustomAgent && !s.AgentAllTools && listed(s.AgentTools, name)
}

// effective is the profile as it applies to ts: a list that names none of
// them is ignored (every tool is offered) rather than leaving the model
// with none; the engine reports the unknown names.
func (p Profile) effective(ts []tools.Tool) Profile {
	if p.Kind != ProfileList {
		return p
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name()
	}
	if len(p.Unknown(names)) == len(p.Names) {
		return Profile{Kind: ProfileFull}
	}
	return p
}
