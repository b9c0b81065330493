package toolpolicy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// situations is every combination Decide distinguishes.
func situations(*testing.T) []Situation { return Situations() }

func (s Situation) String() string {
	return fmt.Sprintf("%s/%s/%s/%s cmd=%v final=%v btw=%v sandbox=%v headless=%v", s.Role, s.Mode, s.Phase, s.Profile, s.Command != nil, s.Final, s.BTW, s.Sandbox, s.Headless)
}

// TestEveryCombination walks every role, mode and phase, profile,
// command list, closing run, side conversation and sandbox state, and
// checks what holds for every decision: each withheld tool has one
// sentence of reason, naming no other tool's; a tool is blocked or
// refused, never both; only the main agent's side conversation and its
// closing run after a plan refuse (and only the plan tool); the prompt's tools are offered or refused;
// the sandbox changes nothing; and nothing grants a role what it lacks.
func TestEveryCombination(t *testing.T) {
	ts := everyTool()
	n := 0
	for _, s := range situations(t) {
		n++
		d := Decide(s, ts)
		for name, why := range d.Blocked {
			checkReason(t, s, name, why)
			if _, both := d.Refused[name]; both {
				t.Errorf("%s: %s both blocked and refused", s, name)
			}
		}
		for name, why := range d.Refused {
			checkReason(t, s, name, why)
			if !(s.BTW || s.Final) || s.Role != Main || !tools.BuiltinTraits(name).Has(tools.Plans) && name != modes.ToolCreateTodo {
				t.Errorf("%s: refuses %s", s, name)
			}
		}
		if fmt.Sprint(d.Prompted) != fmt.Sprint(d.Offered(ts)) {
			t.Errorf("%s: prompted %v, offered %v", s, d.Prompted, d.Offered(ts))
		}
		alt := s
		alt.Sandbox = !s.Sandbox
		if fmt.Sprint(Decide(alt, ts)) != fmt.Sprint(d) {
			t.Errorf("%s: the sandbox's state changed the decision", s)
		}
		for _, x := range d.Offered(ts) {
			tr := x.Traits()
			switch {
			case s.Role == Reviewer:
				t.Errorf("%s: a reviewer is offered %s", s, x.Name())
			case s.Role == Investigator && !tr.Within(tools.Looks):
				t.Errorf("%s: the investigator is offered %s", s, x.Name())
			case s.Role == Evaluator && tr.Has(tools.WritesWorkspace|tools.AsksHuman|tools.Meta):
				t.Errorf("%s: an evaluator is offered %s", s, x.Name())
			case s.Profile.Kind == ProfileReadonly && tr.Has(tools.WritesWorkspace|tools.RunsCommands):
				t.Errorf("%s: a readonly profile is offered %s", s, x.Name())
			case s.Role == Main && s.Mode == modes.Plan && tr.Has(tools.WritesWorkspace|tools.RunsCommands):
				t.Errorf("%s: Plan mode offers %s", s, x.Name())
			}
		}
	}
	if n < 5000 {
		t.Fatalf("only %d situations", n)
	}
}

func checkReason(t *testing.T, s Situation, name string, why Reason) {
	t.Helper()
	text := why.String()
	if text == "" || strings.ContainsAny(text, "\n") || strings.Count(text, ". ") > 0 || strings.Contains(text, "%!") {
		t.Errorf("%s: %s: reason %q is not one sentence", s, name, text)
	}
	if zh := why.In(func(f string, a ...any) string { return "«" + fmt.Sprintf(f, a...) + "»" }); zh != "«"+text+"»" {
		t.Errorf("%s: %s: translated reason %q", s, name, zh)
	}
}

// TestNewReadTool: a tool nobody has heard of, declared as reading, is
// offered wherever reading is: to evaluators and the investigator, in
// Plan mode, in Phases' EXPLORING, PLANNING, PATCHING and VERIFYING, and
// in every reconcile step that calls a model, and under a readonly
// profile. Before toolpolicy, each of those listed tool names and left it
// out.
func TestNewReadTool(t *testing.T) {
	ts := append(everyTool(), fake{"read_symbols", tools.Reads})
	ro, _ := ParseProfile("readonly")
	for _, s := range []Situation{
		{Role: Evaluator}, {Role: Investigator}, {Role: Executor}, {Role: Main},
		{Role: Main, Mode: modes.Plan},
		{Role: Main, Mode: modes.Phases}, {Role: Main, Mode: modes.Phases, Phase: string(modes.Exploring)},
		{Role: Main, Mode: modes.Phases, Phase: string(modes.Planning)}, {Role: Main, Mode: modes.Phases, Phase: string(modes.Patching)},
		{Role: Main, Mode: modes.Phases, Phase: string(modes.Verifying)},
		{Role: Main, Mode: modes.Reconcile}, {Role: Main, Mode: modes.Reconcile, Phase: string(modes.Specifier)},
		{Role: Main, Mode: modes.Reconcile, Phase: string(modes.Coder)},
		{Role: Main, Profile: ro}, {Role: Evaluator, Profile: ro},
	} {
		if why, no := Decide(s, ts).Blocked["read_symbols"]; no {
			t.Errorf("%s: a new read tool is withheld: %s", s, why)
		}
	}
	// And a new tool that writes is not offered where only reading is.
	ts = append(ts, fake{"rename_symbol", tools.WritesWorkspace})
	for _, s := range []Situation{{Role: Evaluator}, {Role: Investigator}, {Role: Main, Mode: modes.Plan},
		{Role: Main, Mode: modes.Phases}, {Role: Main, Mode: modes.Reconcile}, {Role: Main, Profile: ro}} {
		if _, no := Decide(s, ts).Blocked["rename_symbol"]; !no {
			t.Errorf("%s: a new write tool is offered", s)
		}
	}
}

// TestLayersKeepTheFirstReason: the role's reason wins over the
// profile's, the profile's over the command's, the command's over the
// phase's; a side conversation refuses the plan tool (offered, so the
// tool definitions match) in the free run and blocks it elsewhere.
func TestLayersKeepTheFirstReason(t *testing.T) {
	ro, _ := ParseProfile("readonly")
	cmd := func(n string) bool { return n == "read_file" }
	ts := pick("read_file", "edit", "glob", "complete_todo_item", "create_todo_list", "run_shell_command")
	d := Decide(Situation{Role: Main, Mode: modes.Phases, Profile: ro, Command: cmd}, ts)
	for name, want := range map[string]string{
		"complete_todo_item": "evaluator", "edit": "tool profile (readonly)", "glob": "allowedTools",
	} {
		if got := d.Blocked[name].String(); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want the reason with %q", name, got, want)
		}
	}
	if _, ok := d.Blocked["read_file"]; ok {
		t.Error("read_file withheld")
	}
	free := Decide(Situation{Role: Main, BTW: true}, ts)
	if why, ok := free.Refused["create_todo_list"]; !ok || !strings.Contains(why.String(), "btw") {
		t.Errorf("btw free run: refused %v blocked %v", free.Refused, free.Blocked)
	}
	if fmt.Sprint(free.Prompted) != fmt.Sprint(Decide(Situation{Role: Main}, ts).Prompted) {
		t.Error("a side conversation's prompt differs from the main one's")
	}
	if _, ok := Decide(Situation{Role: Executor, BTW: true}, ts).Blocked["create_todo_list"]; !ok {
		t.Error("btw executor offered create_todo_list")
	}
	// The prompt names only what the phase offers.
	for _, s := range []Situation{{Role: Main, Mode: modes.Phases}, {Role: Main, Mode: modes.Phases, Phase: string(modes.Verifying)}} {
		d := Decide(s, ts)
		if fmt.Sprint(d.Prompted) != fmt.Sprint(d.Offered(ts)) {
			t.Errorf("%s: prompted %v, offered %v", s, d.Prompted, d.Offered(ts))
		}
	}
	// Headless: the editor's problems are not offered.
	ts = everyTool()
	if why, ok := Decide(Situation{Role: Main, Headless: true}, ts).Blocked["get_diagnostics"]; !ok || !strings.Contains(why.String(), "no editor") {
		t.Errorf("headless get_diagnostics: %v %v", why, ok)
	}
	if _, ok := Decide(Situation{Role: Main}, ts).Blocked["get_diagnostics"]; ok {
		t.Error("get_diagnostics withheld with an editor")
	}
}
