package watchdog

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// spin burns CPU on the calling goroutine until ctx ends or d of wall time
// has passed, and reports whether ctx ended it.
func spin(ctx context.Context, d time.Duration) bool {
	end := time.Now().Add(d)
	x := 0
	for time.Now().Before(end) {
		for i := 0; i < 1e5; i++ {
			x += i
		}
		if ctx.Err() != nil {
			return true
		}
	}
	return x < 0
}

func TestSpinningStepIsStopped(t *testing.T) {
	cause := make(chan error, 1)
	start := time.Now()
	_, err := Do(context.Background(), "read_file", 100<<10, 100*time.Millisecond, func(ctx context.Context) (int, error) {
		Doing(ctx, "decoding the arguments")
		spin(ctx, time.Minute)
		cause <- context.Cause(ctx)
		return 1, nil
	})
	var e *Exceeded
	if !errors.As(err, &e) {
		t.Fatalf("want *Exceeded, got %v", err)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Fatalf("stopped after %s", took)
	}
	msg := e.Error()
	for _, want := range []string{"read_file was stopped", "100ms of CPU time", "while decoding the arguments", "input of 100.0 KB"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	select {
	case c := <-cause:
		if !errors.As(c, &e) {
			t.Fatalf("the step's context ended with %v, want the *Exceeded", c)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the step's context was not cancelled")
	}
}

// TestWaitingCostsNothing: a step that waits (for a person, a process,
// the network) longer than its budget in wall time is not stopped.
func TestWaitingCostsNothing(t *testing.T) {
	v, err := Do(context.Background(), "ask_human", 10, 50*time.Millisecond, func(ctx context.Context) (string, error) {
		<-time.After(400 * time.Millisecond) // the wait under test, 8× the budget
		return "answered", nil
	})
	if err != nil || v != "answered" {
		t.Fatalf("a waiting step was stopped: %q, %v", v, err)
	}
}

// TestPausedWorkIsNotCounted: work between Pause and its resume does not
// count; work after it does.
func TestPausedWorkIsNotCounted(t *testing.T) {
	_, err := Do(context.Background(), "investigate", 10, 100*time.Millisecond, func(ctx context.Context) (int, error) {
		resume := Pause(ctx)
		if spin(ctx, 400*time.Millisecond) {
			return 0, errors.New("stopped while paused")
		}
		resume()
		spin(ctx, time.Minute)
		return 0, nil
	})
	var e *Exceeded
	if !errors.As(err, &e) {
		t.Fatalf("want the work after the pause to be stopped, got %v", err)
	}
}

func TestPanicReachesTheCaller(t *testing.T) {
	defer func() {
		if p := recover(); p != "boom" {
			t.Fatalf("recovered %v", p)
		}
	}()
	Do(context.Background(), "x", 0, time.Second, func(context.Context) (int, error) { panic("boom") })
	t.Fatal("no panic")
}

func TestOutsideAWatchNothingHappens(t *testing.T) {
	Doing(context.Background(), "x")
	Pause(context.Background())()
}
