package moderun

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/workspace/tools"
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
func (f fakeTool) Traits() tools.Traits    { return tools.WritesWorkspace }
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
		// A refusal is the step's rule: the chat shows it as withheld.
		if m, _ := res.Meta.(map[string]any); !c.ok && m["withheld"] != true {
			t.Errorf("%s writing %s: the refusal is not marked withheld: %#v", c.step, c.path, res.Meta)
		}
	}
}

// The path rule judges the file a write lands on, relative to the
// workspace: "tests/../src" is source, a workspace that itself lives
// under a tests/ folder is not all tests, and test inputs (testdata,
// pytest files) are tests.
func TestStepToolsPathRuleOnTheRealTarget(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "tests", "proj")
	for _, c := range []struct {
		step modes.Step
		path string
		ok   bool
	}{
		{modes.Specifier, "tests/../src/app.go", false},
		{modes.Coder, "tests/../src/app.go", true},
		{modes.Coder, "src/../app_test.go", false},
		{modes.Coder, filepath.Join(root, "src", "app.go"), true},
		{modes.Specifier, filepath.Join(root, "src", "app.go"), false},
		{modes.Coder, filepath.Join(root, "src", "app_test.go"), false},
		{modes.Coder, "testdata/golden.json", false},
		{modes.Coder, "pkg/testdata/in.txt", false},
		{modes.Coder, "app_test.py", false},
		{modes.Coder, "conftest.py", false},
		{modes.Coder, "src/__tests__/x.js", false},
		{modes.Coder, "web/a.spec.js", false},
		{modes.Coder, "src/contest.go", true},
	} {
		ran := 0
		ts, _ := StepTools(c.step, []tools.Tool{fakeTool{name: "write_file", ran: &ran}}, []string{root})
		args, _ := json.Marshal(map[string]string{"filePath": c.path})
		res, err := ts[0].Run(ctx, &tools.Env{}, args)
		if err != nil || res.OK != c.ok || (ran == 1) != c.ok {
			t.Errorf("%s writing %s: %+v %v (ran %d)", c.step, c.path, res, err, ran)
		}
	}
}
