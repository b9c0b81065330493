package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/gate/watchdog"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// fakeTool runs its function as the tool's work.
type fakeTool struct {
	name string
	run  func(ctx context.Context) tools.Result
}

func (f fakeTool) Name() string            { return f.name }
func (f fakeTool) Description() string     { return f.name }
func (f fakeTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (f fakeTool) ReadOnly() bool          { return true }
func (f fakeTool) Traits() tools.Traits    { return tools.Reads }
func (f fakeTool) Run(ctx context.Context, _ *tools.Env, _ json.RawMessage) (tools.Result, error) {
	return f.run(ctx), nil
}

// TestToolCallOverItsCPUBudgetIsStopped: a call spinning on its input
// (issue 31: a 100 KB argument held a turn for minutes) fails once it has
// used its CPU budget, with a message naming the tool, the step and the
// input's size; the next call runs as usual.
func TestToolCallOverItsCPUBudgetIsStopped(t *testing.T) {
	quit := make(chan struct{})
	defer close(quit)
	spin := fakeTool{name: "spin", run: func(ctx context.Context) tools.Result {
		watchdog.Doing(ctx, "counting tokens")
		for x := 0; ctx.Err() == nil; x++ {
			select {
			case <-quit:
				return tools.Result{}
			default:
			}
		}
		return tools.Result{OK: true, Output: "late"}
	}}
	ok := fakeTool{name: "ok", run: func(context.Context) tools.Result { return tools.Result{OK: true, Output: "fine"} }}
	r := &Run{Tools: []tools.Tool{spin, ok}, Env: &tools.Env{}, ToolBudget: 100 * time.Millisecond,
		Translate: func(f string, a ...any) string { return "shown" }}
	args := `{"path":"` + strings.Repeat("./", 50<<10) + `"}`
	done := make(chan tools.Result, 1)
	go func() {
		res, _ := r.runOne(context.Background(), llm.ToolCall{ID: "1", Name: "spin", Arguments: args})
		done <- res
	}()
	var res tools.Result
	select {
	case res = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the spinning call was not stopped")
	}
	if res.OK || res.Display != "shown" {
		t.Fatalf("want a failure with a Display, got %+v", res)
	}
	for _, want := range []string{"spin was stopped", "100ms of CPU time", "while counting tokens", "input of 100.0 KB", "smaller input"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output %q lacks %q", res.Output, want)
		}
	}
	if res, _ := r.runOne(context.Background(), llm.ToolCall{ID: "2", Name: "ok", Arguments: "{}"}); !res.OK || res.Output != "fine" {
		t.Fatalf("the next call: %+v", res)
	}
	if res, _ := r.runOne(context.Background(), llm.ToolCall{ID: "3", Name: "ok", Arguments: "[1"}); res.OK || !strings.Contains(res.Output, "invalid JSON arguments") {
		t.Fatalf("bad JSON arguments: %+v", res)
	}
}
