package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// gated is a read-only tool that waits for its gate before answering and
// closes its own when done, so a test orders completions without sleeps.
type gated struct {
	name       string
	wait, done chan struct{}
}

func (g gated) Name() string            { return g.name }
func (g gated) Description() string     { return "" }
func (g gated) Schema() json.RawMessage { return json.RawMessage(`{}`) }
func (g gated) ReadOnly() bool          { return true }
func (g gated) Traits() tools.Traits    { return tools.Reads }
func (g gated) Run(ctx context.Context, _ *tools.Env, _ json.RawMessage) (tools.Result, error) {
	if g.wait != nil {
		select {
		case <-g.wait:
		case <-ctx.Done():
			return tools.Result{}, ctx.Err()
		}
	}
	defer close(g.done)
	return tools.Result{OK: true, Output: g.name}, nil
}

// finishOrder records the order of ToolFinished.
type finishOrder struct {
	mu  sync.Mutex
	ids []string
}

func (f *finishOrder) TextDelta(string)      {}
func (f *finishOrder) ReasoningDelta(string) {}
func (f *finishOrder) Retry(int, string)     {}
func (f *finishOrder) Append(llm.Message)    {}
func (f *finishOrder) ToolStarted(llm.ToolCall) {
}
func (f *finishOrder) ToolFinished(c llm.ToolCall, _ tools.Result, _ time.Duration, msg llm.Message) {
	f.mu.Lock()
	f.ids = append(f.ids, msg.ToolCallID)
	f.mu.Unlock()
}
func (f *finishOrder) Usage(llm.Usage) {}
func (f *finishOrder) Notice(string)   {}

// TestParallelResultsKeepTheCallOrder: the first call of a parallel batch
// finishes last (it waits for the third), yet the results are recorded in
// the order of the calls.
func TestParallelResultsKeepTheCallOrder(t *testing.T) {
	first, second, third := make(chan struct{}), make(chan struct{}), make(chan struct{})
	ts := []tools.Tool{
		gated{name: "slow", wait: third, done: first},
		gated{name: "middle", wait: third, done: second},
		gated{name: "fast", done: third},
	}
	r := &Run{Tools: ts}
	calls := []llm.ToolCall{{ID: "c1", Name: "slow", Arguments: `{}`}, {ID: "c2", Name: "middle", Arguments: `{}`}, {ID: "c3", Name: "fast", Arguments: `{}`}}
	sink := &finishOrder{}
	record := func(c llm.ToolCall, res tools.Result) llm.Message {
		return llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: res.Output}
	}
	if r.runTools(context.Background(), calls, sink, record) {
		t.Fatal("suspended")
	}
	if got := fmt.Sprint(sink.ids); got != "[c1 c2 c3]" {
		t.Fatalf("results recorded as %s, want the calls' order", got)
	}
}
