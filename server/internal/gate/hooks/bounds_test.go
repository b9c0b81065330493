package hooks

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestTimeoutsAreBounded: a configuration cannot give a hook an unbounded
// run. Timeouts above MaxTimeout are a reported problem, and one too
// large for time.Duration (1e300 s) is not turned into an overflowed,
// negative or default timeout.
func TestTimeoutsAreBounded(t *testing.T) {
	c, problems, _ := Load(json.RawMessage(`{"Stop":[{"hooks":[{"command":"a","timeout":600},{"command":"b","timeout":601},{"command":"c","timeout":1e300}]}]}`), nil, true)
	hs := c.For(Stop, "")
	// Capped, not dropped: a guard the user counts on stays, and says so.
	if len(hs) != 3 || hs[0].Timeout != MaxTimeout || hs[1].Timeout != MaxTimeout || hs[2].Timeout != MaxTimeout {
		t.Fatalf("hooks: %+v", hs)
	}
	if len(problems) != 1 || strings.Count(problems[0].Message, "above the maximum of 600 seconds") != 2 {
		t.Fatalf("problems: %v", problems)
	}
}

// TestTimedOutHookNamesItsEventAndTimeout: the note of a hook stopped by
// its timeout says which step it was and after how long.
func TestTimedOutHookNamesItsEventAndTimeout(t *testing.T) {
	r, _ := runner(t, `{"UserPromptSubmit":[{"hooks":[{"command":"sleep 30","timeout":0.2}]}]}`)
	out := r.Fire(context.Background(), Input{HookEventName: UserPromptSubmit, Prompt: "hi"})
	if len(out.Runs) != 1 || out.Runs[0].Result != "timeout" || !strings.Contains(out.Runs[0].Note, "the UserPromptSubmit hook timed out after 200ms") {
		t.Fatalf("%+v", out)
	}
}

// TestSpinningHookStepIsStopped: the sidecar's own work for an event's
// hooks (here its transcript, through Prepare) runs under a CPU budget:
// one that spins is stopped, and the event goes on unblocked with a run
// whose note names the step and the event's size (issue 31 §5).
func TestSpinningHookStepIsStopped(t *testing.T) {
	r, _ := runner(t, `{"UserPromptSubmit":[{"hooks":[{"command":"true"}]}]}`)
	quit := make(chan struct{})
	defer close(quit)
	r.Budget = 100 * time.Millisecond
	r.Prepare = func(ctx context.Context, _ *Input) {
		for ctx.Err() == nil {
			select {
			case <-quit:
				return
			default:
			}
		}
	}
	done := make(chan Outcome, 1)
	go func() {
		done <- r.Fire(context.Background(), Input{HookEventName: UserPromptSubmit, Prompt: strings.Repeat("a", 2048)})
	}()
	var out Outcome
	select {
	case out = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the hooks' step was not stopped")
	}
	if out.Blocked || len(out.Runs) != 1 || out.Runs[0].Result != "failed" {
		t.Fatalf("%+v", out)
	}
	for _, want := range []string{"the UserPromptSubmit hook step was stopped", "while writing the transcript", "input of 2.0 KB"} {
		if !strings.Contains(out.Runs[0].Note, want) {
			t.Errorf("note %q lacks %q", out.Runs[0].Note, want)
		}
	}
}
