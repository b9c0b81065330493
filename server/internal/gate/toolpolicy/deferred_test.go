package toolpolicy

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// TestDeferredFollowsTheTrait: the tools declared Deferred are offered
// behind the entry wherever they are offered, and only there: never a
// blocked or refused tool, never one without the trait. A new tool
// declared Deferred is deferred with no list to update.
func TestDeferredFollowsTheTrait(t *testing.T) {
	ts := append(everyTool(), fake{"rename_symbol", tools.WritesWorkspace | tools.Deferred})
	ro, _ := ParseProfile("readonly")
	for _, s := range []Situation{
		{Role: Main}, {Role: Main, Mode: modes.Plan}, {Role: Main, Profile: ro}, {Role: Main, BTW: true},
		{Role: Main, Mode: modes.Phases, Phase: string(modes.Patching)}, {Role: Executor}, {Role: Evaluator},
		{Role: Investigator}, {Role: CustomAgent, AgentAllTools: true},
	} {
		d := Decide(s, ts)
		for _, x := range ts {
			name := x.Name()
			_, blocked := d.Blocked[name]
			_, refused := d.Refused[name]
			want := x.Traits().Has(tools.Deferred) && !blocked && !refused
			if d.Deferred[name] != want {
				t.Errorf("%s: %s deferred %v, want %v", s, name, d.Deferred[name], want)
			}
		}
		// The request shows each offered tool once: directly or in the
		// entry's list.
		req := d.Request(ts)
		seen := map[string]bool{}
		for _, x := range req {
			seen[x.Name()] = true
			if x.Name() == tools.DeferredEntryName {
				for n := range d.Deferred {
					if !strings.Contains(x.Description(), "\n- "+n+"(") {
						t.Errorf("%s: the entry does not list %s", s, n)
					}
				}
			}
		}
		for _, x := range d.Offered(ts) {
			if seen[x.Name()] == d.Deferred[x.Name()] {
				t.Errorf("%s: %s shown directly %v, deferred %v", s, x.Name(), seen[x.Name()], d.Deferred[x.Name()])
			}
		}
	}
	if d := Decide(Situation{Role: Main}, ts); !d.Deferred["rename_symbol"] || !d.Deferred["text_diff"] || d.Deferred["read_file"] {
		t.Errorf("main agent: deferred %v", d.Deferred)
	}
	if d := Decide(Situation{Role: Main, Mode: modes.Plan}, ts); d.Deferred["create_directory"] || d.Deferred["rename_symbol"] || !d.Deferred["get_file_info"] {
		t.Errorf("Plan mode: deferred %v", d.Deferred)
	}
}

// TestAListNamesADeferredToolDirectly: a tool profile, a command's
// allowedTools or a custom agent's definition that names a deferred tool
// chose it for the run, so it is offered with its schema.
func TestAListNamesADeferredToolDirectly(t *testing.T) {
	ts := pick("read_file", "text_diff", "get_file_info")
	list, _ := ParseProfile("read_file,text_diff")
	for _, s := range []Situation{
		{Role: Main, Profile: list},
		{Role: Main, Command: func(n string) bool { return n != "get_file_info" }},
		{Role: CustomAgent, AgentTools: []string{"read_file", "text_diff"}},
	} {
		d := Decide(s, ts)
		if len(d.Deferred) != 0 || len(d.Request(ts)) != 2 {
			t.Errorf("%s: deferred %v, request %v", s, d.Deferred, d.Request(ts))
		}
	}
	// A custom agent given every tool defers as the main agent does.
	if d := Decide(Situation{Role: CustomAgent, AgentAllTools: true}, ts); !d.Deferred["text_diff"] || !d.Deferred["get_file_info"] {
		t.Errorf("agent with every tool: deferred %v", d.Deferred)
	}
}
