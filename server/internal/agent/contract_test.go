package agent_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// extra is a tool other packages define (the plan's, the modes' report
// tools, compaction, sub-agents, MCP), known here by its name and traits.
type extra struct {
	name   string
	traits tools.Traits
}

func (f extra) Name() string            { return f.name }
func (f extra) Description() string     { return "" }
func (f extra) Schema() json.RawMessage { return json.RawMessage(`{}`) }
func (f extra) ReadOnly() bool          { return f.traits.ChangesNothing() }
func (f extra) Traits() tools.Traits    { return f.traits }
func (f extra) Run(context.Context, *tools.Env, json.RawMessage) (tools.Result, error) {
	return tools.Result{OK: true}, nil
}

func everyTool() []tools.Tool {
	return append(tools.Builtin(),
		extra{modes.ToolCreateTodo, tools.Plans}, extra{"complete_todo_item", tools.JudgesItems}, extra{"compact", tools.Meta},
		extra{modes.ToolReportFindings, tools.Reports}, extra{modes.ToolReportPlan, tools.Reports},
		extra{modes.ToolReportBlocked, tools.Reports}, extra{modes.ToolReportDone, tools.Reports},
		extra{"investigate", tools.StartsSubAgent | tools.Reads | tools.Searches},
		extra{"browser_sub_agent", tools.StartsSubAgent | tools.ReachesNetwork | tools.DrivesBrowser},
		extra{"mcp__docs__search", tools.Reads | tools.ReachesNetwork})
}

var snake = regexp.MustCompile("[a-z]+(?:_[a-z]+)+")

// named are the tools text names: any tool name in backticks, and any
// snake_case word that is a tool's name (a bare "edit" is prose).
func named(text string, known map[string]bool) []string {
	var out []string
	parts := strings.Split(text, "`")
	for i := 1; i < len(parts); i += 2 {
		if known[parts[i]] {
			out = append(out, parts[i])
		}
	}
	for _, w := range snake.FindAllString(text, -1) {
		if known[w] {
			out = append(out, w)
		}
	}
	return out
}

func nameSet(ts []tools.Tool) map[string]bool {
	m := map[string]bool{}
	for _, t := range ts {
		m[t.Name()] = true
	}
	return m
}

// TestNoGuidanceNamesAToolNotOffered walks every combination the tool
// policy distinguishes (role, mode and phase, profile, command limits,
// closing run, side conversation, sandbox, headless): the system prompt
// names only tools its run is offered, and each offered tool's
// description only offered tools.
func TestNoGuidanceNamesAToolNotOffered(t *testing.T) {
	ts := everyTool()
	known := nameSet(ts)
	h := agent.HostInfo{OS: "linux", Shell: "bash", Date: "2026-01-02"}
	n := 0
	for _, s := range toolpolicy.Situations() {
		d := toolpolicy.Decide(s, ts)
		// A side conversation's refused plan tool stays offered (its
		// prompt and tool definitions are the main conversation's).
		offered := d.Offered(ts)
		have := nameSet(offered)
		p := agent.SystemPromptFor(h, "en", s, d.Prompted)
		for _, name := range named(p, known) {
			if !have[name] {
				t.Fatalf("%+v: the system prompt names %s, which is not offered:\n%s", s, name, p)
			}
		}
		for _, x := range offered {
			desc := tools.Describe(x, offered)
			if strings.Contains(desc, "{{") {
				t.Fatalf("%s: an unresolved clause: %q", x.Name(), desc)
			}
			for _, name := range named(desc, known) {
				if !have[name] && name != x.Name() {
					t.Fatalf("%+v: %s's description names %s, which is not offered: %q", s, x.Name(), name, desc)
				}
			}
		}
		n++
	}
	if n < 5000 {
		t.Fatalf("walked only %d situations", n)
	}
}

// TestEachModeAndRoleHasItsContract: the opening says who the run is and
// where it stands, in two to four lines, and the context block tells the
// truth about edits.
func TestEachModeAndRoleHasItsContract(t *testing.T) {
	ts := everyTool()
	h := agent.HostInfo{OS: "linux", Shell: "bash"}
	for _, c := range []struct {
		s    toolpolicy.Situation
		want []string
	}{
		{toolpolicy.Situation{Role: toolpolicy.Main}, []string{"Agent mode", "ends when you reply"}},
		{toolpolicy.Situation{Role: toolpolicy.Main, Mode: modes.Plan}, []string{"Plan mode", "nothing in the workspace changes", "`create_todo_list`"}},
		{toolpolicy.Situation{Role: toolpolicy.Main, Mode: modes.Phases}, []string{"Phases mode", "You are in EXPLORING", "`report_findings`", "A plain reply does not end it"}},
		{toolpolicy.Situation{Role: toolpolicy.Main, Mode: modes.Phases, Phase: string(modes.Patching)}, []string{"You are in PATCHING", "`report_blocked`"}},
		{toolpolicy.Situation{Role: toolpolicy.Main, Mode: modes.Reconcile}, []string{"Reconcile mode", "`write_file`"}},
		{toolpolicy.Situation{Role: toolpolicy.Executor}, []string{"executor", "since the last user message before you `edit`"}},
		{toolpolicy.Situation{Role: toolpolicy.Evaluator}, []string{"evaluator", "`complete_todo_item`", "change nothing"}},
	} {
		d := toolpolicy.Decide(c.s, ts)
		p := agent.SystemPromptFor(h, "en", c.s, d.Prompted)
		opening := p[:strings.Index(p, "# How to work")]
		if lines := strings.Count(strings.TrimSpace(opening), "\n") + 1; lines < 2 || lines > 4 {
			t.Errorf("%+v: the opening has %d lines:\n%s", c.s, lines, opening)
		}
		for _, w := range c.want {
			if !strings.Contains(opening, w) {
				t.Errorf("%+v: the opening lacks %q:\n%s", c.s, w, opening)
			}
		}
		if c.s.Mode == modes.Plan && strings.Contains(p, "`edit`") {
			t.Errorf("Plan mode's prompt names edit:\n%s", p)
		}
	}
	// The closing run after a plan is sent the main agent's prompt byte for
	// byte, so its request extends the main agent's cached prefix; its
	// task (sum up, do not plan again) is its user message's
	// (scheduler.FinalPrompt), and the policy refuses the plan tool.
	free := toolpolicy.Situation{Role: toolpolicy.Main}
	final := toolpolicy.Situation{Role: toolpolicy.Main, Final: true}
	if a, b := agent.SystemPromptFor(h, "en", free, toolpolicy.Decide(free, ts).Prompted),
		agent.SystemPromptFor(h, "en", final, toolpolicy.Decide(final, ts).Prompted); a != b {
		t.Errorf("the closing run's prompt differs from the main agent's:\n%s\n---\n%s", a, b)
	}
	// Reconcile's manifest run has write_file without edit.
	s := toolpolicy.Situation{Role: toolpolicy.Main, Mode: modes.Reconcile}
	offered := toolpolicy.Decide(s, ts).Offered(ts)
	for _, x := range offered {
		if x.Name() == modes.ToolWriteFile && strings.Contains(tools.Describe(x, offered), "prefer") {
			t.Errorf("write_file in Reconcile: %q", tools.Describe(x, offered))
		}
	}
	for _, c := range []struct {
		st   agent.ContextState
		want string
	}{
		{agent.ContextState{EditEnabled: true}, "Edit: ON"},
		{agent.ContextState{EditEnabled: true, Mode: modes.Plan}, "Mode: Plan\nEdit: OFF (Plan mode)"},
		{agent.ContextState{EditEnabled: true, Mode: modes.Phases}, "Mode: Phases, phase EXPLORING\nEdit: OFF (EXPLORING phase)"},
		{agent.ContextState{EditEnabled: true, Mode: modes.Phases, Phase: string(modes.Patching)}, "Edit: ON"},
		{agent.ContextState{EditEnabled: false, Mode: modes.Plan}, "disabled by the user"},
	} {
		if got := agent.ContextBlock(c.st); !strings.Contains(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.st, got, c.want)
		}
	}
}

// TestDescribeDropsClausesAboutToolsNotOffered: {{name: text}} is kept
// only with name offered.
func TestDescribeDropsClausesAboutToolsNotOffered(t *testing.T) {
	has := func(n string) bool { return n == "a" }
	for in, want := range map[string]string{
		"One.{{a:  Two.}} Three.":   "One. Two. Three.",
		"One.{{b:  Two.}} Three.":   "One. Three.",
		"One.\n\n{{b: Two.}}":       "One.",
		"{{a,b: Both.}}Rest":        "Rest",
		"unclosed {{a: text":        "unclosed {{a: text",
		"no clause: {{just text}}.": "no clause: {{just text}}.",
	} {
		if got := tools.DescribeAmong(in, has); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
