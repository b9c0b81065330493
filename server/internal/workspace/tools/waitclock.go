package tools

import (
	"context"
	"sync"
	"time"
)

// A call's duration is how long it ran, not how long the person took to
// decide: a command that ran for 953 ms after a 16 s wait on its card
// shows 953 ms. The agent loop gives each call a WaitClock in its context;
// whoever makes the call wait for a person (the approval flow) adds that
// wait to it, and the loop takes it off the call's elapsed time.

type waitClockKey struct{}

// WaitClock adds up the time one call spent waiting for a person. Safe for
// concurrent use: a call may ask more than once.
type WaitClock struct {
	mu sync.Mutex
	d  time.Duration
}

// WithWaitClock returns ctx carrying a new clock for one call.
func WithWaitClock(ctx context.Context) (context.Context, *WaitClock) {
	w := &WaitClock{}
	return context.WithValue(ctx, waitClockKey{}, w), w
}

// AddWait records d spent waiting for a person on the call ctx belongs
// to; without a clock (a headless caller, a test) it does nothing.
func AddWait(ctx context.Context, d time.Duration) {
	if w, _ := ctx.Value(waitClockKey{}).(*WaitClock); w != nil && d > 0 {
		w.mu.Lock()
		w.d += d
		w.mu.Unlock()
	}
}

// Total is the wait recorded so far.
func (w *WaitClock) Total() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.d
}

// RunTime is elapsed less the recorded wait, never below zero.
func (w *WaitClock) RunTime(elapsed time.Duration) time.Duration {
	if d := elapsed - w.Total(); d > 0 {
		return d
	}
	return 0
}
