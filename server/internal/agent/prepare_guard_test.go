package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/gate/watchdog"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// spinUntil burns CPU until ctx ends or quit closes (so a regression ends
// the spinner with the test, not with the process).
func spinUntil(ctx context.Context, quit <-chan struct{}) {
	for ctx.Err() == nil {
		select {
		case <-quit:
			return
		default:
		}
	}
}

// runWithin executes r and fails the test if the run does not end within
// a minute: a pre-request step that spins must not hold the turn.
func runWithin(t *testing.T, r *Run, history []llm.Message) Outcome {
	t.Helper()
	done := make(chan Outcome, 1)
	go func() { done <- r.Execute(context.Background(), history, quietSink{}) }()
	select {
	case out := <-done:
		return out
	case <-time.After(time.Minute):
		t.Fatal("the run is still preparing its request: the pre-request step was not stopped")
	}
	return Outcome{}
}

// TestSpinningPrepareFailsTheTurnNamingStepAndSize: an estimator or
// compaction planner that spins on its input (issue 31 §5) ends the run
// with an error naming the step, the sub-step and the track's size once
// it has used its CPU budget; the model is never called.
func TestSpinningPrepareFailsTheTurnNamingStepAndSize(t *testing.T) {
	quit := make(chan struct{})
	defer close(quit)
	srv := scripted.Start(t, scripted.Reply{Text: "never"})
	c, err := llm.New(llm.Profile{BaseURL: srv.URL(), Model: "m", APIKey: "k", Provider: llm.ProviderOpenAI}, llm.Options{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := &Run{Client: c, System: "sys", PrepareBudget: 100 * time.Millisecond,
		Prepare: func(ctx context.Context, msgs []llm.Message) ([]llm.Message, error) {
			watchdog.Doing(ctx, "estimating the request's tokens")
			spinUntil(ctx, quit)
			return msgs, nil
		}}
	history := []llm.Message{{Role: llm.RoleUser, Content: strings.Repeat("./", 50<<10)}}
	out := runWithin(t, r, history)
	var stopped *watchdog.Exceeded
	if out.Status != StatusError || !errors.As(out.Err, &stopped) {
		t.Fatalf("outcome = %+v, want an error from the watchdog", out)
	}
	for _, want := range []string{StepPrepare + " was stopped", "100ms of CPU time", "while estimating the request's tokens", "input of 100.0 KB"} {
		if !strings.Contains(out.Err.Error(), want) {
			t.Errorf("error %q lacks %q", out.Err, want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("the model was called %d times after the step was stopped", n)
	}
}

// TestSpinningOverflowCompactionFailsTheTurn: the compaction run after a
// context overflow is a pre-request step too.
func TestSpinningOverflowCompactionFailsTheTurn(t *testing.T) {
	quit := make(chan struct{})
	defer close(quit)
	srv := scripted.Start(t, scripted.Reply{Text: "never", Faults: []scripted.Fault{scripted.StatusFault(400, overflowBody)}})
	c, err := llm.New(llm.Profile{BaseURL: srv.URL(), Model: "m", APIKey: "k", Provider: llm.ProviderOpenAI}, llm.Options{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := &Run{Client: c, System: "sys", PrepareBudget: 100 * time.Millisecond,
		OverflowCompact: func(ctx context.Context) error { spinUntil(ctx, quit); return nil }}
	out := runWithin(t, r, []llm.Message{{Role: llm.RoleUser, Content: "hi"}})
	if out.Status != StatusError || !strings.Contains(errString(out.Err), StepOverflowCompact+" was stopped") ||
		!strings.Contains(errString(out.Err), "input of 2 bytes") {
		t.Fatalf("outcome = %+v, want the overflow compaction stopped by the watchdog", out)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("requests = %d, want 1 (no retry after the stopped compaction)", n)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
