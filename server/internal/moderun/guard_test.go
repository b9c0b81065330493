package moderun

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/govibe/govibe/server/internal/modes"
	"github.com/govibe/govibe/server/internal/tools"
)

// fakeTool records whether it ran.
type fakeTool struct {
	name string
	ran  *int
}

func (f fakeTool) Name() string            { return f.name }
func (f fakeTool) Description() string     { return "" }
func (f fakeTool) Schema() json.RawMessage { return json.RawMessage(`{}`) }
func (f fakeTool) ReadOnly() bool          { return false }
func (f fakeTool) Run(context.Context, *tools.Env, json.RawMessage) (tools.Result, error) {
	*f.ran++
	return tools.Result{OK: true, Output: "written"}, nil
}

// A scoped agent's write tools carry its step's path rule whatever the
// model sends: the coder may not touch a test, the specifier may write
// only tests; the refusal is the tool's result and the tool never runs.
func TestStepToolsEnforceThePathRule(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		step modes.Step
		path string
		ok   bool
	}{
		{modes.Coder, "src/app.go", true},
		{modes.Coder, "tests/app.want", false},
		{modes.Specifier, "tests/app.want", true},
		{modes.Specifier, "src/app.go", false},
	} {
		ran := 0
		ts, _ := StepTools(c.step, []tools.Tool{fakeTool{name: "write_file", ran: &ran}}, []string{t.TempDir()})
		res, err := ts[0].Run(ctx, &tools.Env{}, json.RawMessage(`{"filePath":"`+c.path+`"}`))
		if err != nil || res.OK != c.ok || (ran == 1) != c.ok {
			t.Errorf("%s writing %s: %+v %v (ran %d)", c.step, c.path, res, err, ran)
		}
	}
}
