package toolpolicy

import (
	"context"
	"encoding/json"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// fake is a tool known only by its name and traits: the plan's, the
// modes' and compaction's tools live in packages this one may not import,
// and a new tool is exactly this.
type fake struct {
	name   string
	traits tools.Traits
}

func (f fake) Name() string            { return f.name }
func (f fake) Description() string     { return "" }
func (f fake) Schema() json.RawMessage { return json.RawMessage(`{}`) }
func (f fake) ReadOnly() bool          { return f.traits.ChangesNothing() }
func (f fake) Traits() tools.Traits    { return f.traits }
func (f fake) Run(context.Context, *tools.Env, json.RawMessage) (tools.Result, error) {
	return tools.Result{OK: true}, nil
}

// extras are the tools other packages define, with their traits.
var extras = []tools.Tool{
	fake{modes.ToolCreateTodo, tools.Plans}, fake{"complete_todo_item", tools.JudgesItems}, fake{"compact", tools.Meta},
	fake{modes.ToolReportFindings, tools.Reports}, fake{modes.ToolReportPlan, tools.Reports},
	fake{modes.ToolReportBlocked, tools.Reports}, fake{modes.ToolReportDone, tools.Reports},
	fake{"investigate", tools.StartsSubAgent | tools.Looks},
	fake{"browser_sub_agent", tools.StartsSubAgent | tools.ReachesNetwork | tools.DrivesBrowser},
	fake{"mcp__docs__search", tools.Reads | tools.ReachesNetwork}, fake{"mcp__git__commit", tools.WritesWorkspace},
}

// everyTool is every built-in tool and the extras, in a fixed order.
func everyTool() []tools.Tool { return append(tools.Builtin(), extras...) }

// pick is the tools of everyTool called names, in names' order.
func pick(names ...string) []tools.Tool {
	by := map[string]tools.Tool{}
	for _, t := range everyTool() {
		by[t.Name()] = t
	}
	out := make([]tools.Tool, 0, len(names))
	for _, n := range names {
		t, ok := by[n]
		if !ok {
			panic("no tool " + n)
		}
		out = append(out, t)
	}
	return out
}

func offeredNames(d Decision, ts []tools.Tool) []string {
	var out []string
	for _, t := range d.Offered(ts) {
		out = append(out, t.Name())
	}
	return out
}
