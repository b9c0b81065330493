// Package watchdog bounds the CPU time of one step of a turn (a tool call;
// before each model request, agent.Run's Prepare, which estimates tokens
// and plans compaction, and its overflow compaction; an event's hooks,
// whose commands are bounded by their timeouts instead): when the
// step has used more than its budget, the caller gets *Exceeded at once,
// naming the step and its input size, and the step's context is cancelled.
// Go cannot stop a goroutine, so a step that ignores its context runs on
// in the background until it returns, and whatever it returns then is
// dropped; the turn goes on (issue 31).
//
// The meter is CPU time, not wall time: a step waiting for a person, the
// network, the editor or a child process costs none, so no wait is cut
// short, while a step spinning on a pathological input is. On Linux the
// step runs on an OS thread of its own and only that thread's CPU clock
// counts; elsewhere the process's CPU time while the step runs is the
// (conservative) meter.
package watchdog

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultBudget is the CPU time one tool call may use. Ordinary calls use
// milliseconds; the budget only catches work that would otherwise hold
// the turn for minutes.
const DefaultBudget = 30 * time.Second

// checkEvery is how often the meter is read.
const checkEvery = 50 * time.Millisecond

// Exceeded is a step stopped for using more than its budget.
type Exceeded struct {
	Step   string        // what was running ("read_file")
	Doing  string        // the sub-step it was in ("decoding the arguments"), if known
	Size   int           // input size in bytes
	Budget time.Duration // CPU time allowed
	Used   time.Duration // CPU time measured when it was stopped
}

func (e *Exceeded) Error() string {
	doing := ""
	if e.Doing != "" {
		doing = " while " + e.Doing
	}
	return fmt.Sprintf("%s was stopped: it used more than %s of CPU time%s (input of %s); its work was abandoned and nothing more of it is applied",
		e.Step, e.Budget, doing, size(e.Size))
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// watch is one running step, reached from its context.
type watch struct {
	mu     sync.Mutex
	doing  string
	paused int           // nesting depth of Pause
	off    time.Duration // CPU time spent paused, not counted
	offAt  time.Duration // meter reading when the pause began
	meter  func() time.Duration
}

type key struct{}

func from(ctx context.Context) *watch {
	w, _ := ctx.Value(key{}).(*watch)
	return w
}

// Doing names the sub-step a watched step is in, for the message should
// it be stopped there. Outside a watched step it does nothing.
func Doing(ctx context.Context, what string) {
	if w := from(ctx); w != nil {
		w.mu.Lock()
		w.doing = what
		w.mu.Unlock()
	}
}

// Pause stops counting until the returned func is called: for work on the
// step's goroutine that is bounded elsewhere (another agent's run, whose
// own tool calls are watched; a snapshot). Outside a watched step it does
// nothing.
func Pause(ctx context.Context) (resume func()) {
	w := from(ctx)
	if w == nil {
		return func() {}
	}
	w.mu.Lock()
	if w.paused == 0 && w.meter != nil {
		w.offAt = w.meter()
	}
	w.paused++
	w.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			w.paused--
			if w.paused == 0 && w.meter != nil {
				w.off += w.meter() - w.offAt
			}
			w.mu.Unlock()
		})
	}
}

// used is the CPU time counted so far.
func (w *watch) used() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.meter == nil {
		return 0
	}
	if w.paused > 0 {
		return w.offAt - w.off
	}
	return w.meter() - w.off
}

type outcome[T any] struct {
	v   T
	err error
}

// Do runs fn as the step named step, with an input of size bytes, and
// returns what fn returns; or, as soon as fn has used more than budget of
// CPU time (budget ≤ 0: DefaultBudget), a zero T and *Exceeded. A panic in
// fn is re-raised in the caller, as if fn had run there.
func Do[T any](ctx context.Context, step string, size int, budget time.Duration, fn func(context.Context) (T, error)) (T, error) {
	if budget <= 0 {
		budget = DefaultBudget
	}
	w := &watch{}
	ctx, cancel := context.WithCancelCause(context.WithValue(ctx, key{}, w))
	defer cancel(nil)
	done := make(chan outcome[T], 1)
	panicked := make(chan any, 1)
	started := make(chan struct{})
	go func() {
		stop := startMeter(w)
		defer stop()
		close(started)
		defer func() {
			if p := recover(); p != nil {
				panicked <- p
			}
		}()
		v, err := fn(ctx)
		done <- outcome[T]{v, err}
	}()
	<-started
	tick := time.NewTicker(checkEvery)
	defer tick.Stop()
	for {
		select {
		case o := <-done:
			return o.v, o.err
		case p := <-panicked:
			panic(p)
		case <-tick.C:
			if used := w.used(); used > budget {
				w.mu.Lock()
				e := &Exceeded{Step: step, Doing: w.doing, Size: size, Budget: budget, Used: used}
				w.mu.Unlock()
				cancel(e)
				var zero T
				return zero, e
			}
		}
	}
}
