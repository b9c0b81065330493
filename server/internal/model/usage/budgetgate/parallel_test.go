package budgetgate

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/usage"
)

// spentMeter reports every session as its root's, with tokens spent;
// arrived, when set, counts the callers that reached the gate.
type spentMeter struct {
	tokens  int64
	arrived *sync.WaitGroup
}

func (m spentMeter) Root(string) string {
	if m.arrived != nil {
		m.arrived.Done()
	}
	return "root"
}
func (m spentMeter) Of(context.Context, string) usage.Session {
	return usage.Session{Usage: llm.Usage{PromptTokens: m.tokens}, Requests: 1}
}

// countingAsker answers Continue and counts the questions, each once
// every caller reached the gate (arrived).
type countingAsker struct {
	mu      sync.Mutex
	asked   int
	arrived *sync.WaitGroup
}

func (a *countingAsker) Ask(ctx context.Context, c approval.Confirm) (approval.Answer, error) {
	if a.arrived != nil {
		a.arrived.Wait()
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked++
	return approval.Answer{Accept: true, Answer: "Continue"}, nil
}

func tokenBudget(n int) func() config.Settings {
	return func() config.Settings {
		var s config.Settings
		s.Cost.SessionTokenBudget = n
		return s
	}
}

func plain(format string, args ...any) string { return format }

// Sub-agents of one root reaching the limit together ask the user once:
// the grant the first answer gives lets the others through.
func TestParallelCallersAskOnce(t *testing.T) {
	const callers = 4
	var arrived sync.WaitGroup
	arrived.Add(callers)
	asker := &countingAsker{arrived: &arrived}
	g := New(Deps{Settings: tokenBudget(1000), Meter: spentMeter{tokens: 1500, arrived: &arrived}, Asker: asker, Tr: plain,
		LiveTurn: func(string) string { return "" }})
	errs := make(chan error, callers)
	for i := range callers {
		go func() { errs <- g.Check(context.Background(), []string{"a", "b", "c", "d"}[i]) }()
	}
	for range callers {
		if err := <-errs; err != nil {
			t.Fatalf("after Continue: %v", err)
		}
	}
	if asker.asked != 1 {
		t.Fatalf("asked %d times, want once", asker.asked)
	}
}

// Headless the gate never asks: the request fails with the budget error.
func TestHeadlessFailsWithoutAsking(t *testing.T) {
	asker := &countingAsker{}
	g := New(Deps{Settings: tokenBudget(1000), Meter: spentMeter{tokens: 1000}, Asker: asker, Tr: plain, Headless: true,
		LiveTurn: func(string) string { return "" }})
	err := g.Check(context.Background(), "s")
	var be *usage.BudgetError
	if !errors.As(err, &be) || !errors.Is(err, llm.ErrBudget) || !be.Tokens || asker.asked != 0 {
		t.Fatalf("headless at the limit: %v (asked %d)", err, asker.asked)
	}
	if g := New(Deps{Settings: tokenBudget(0), Meter: spentMeter{tokens: 1 << 40}, Tr: plain}); g.Check(context.Background(), "s") != nil {
		t.Fatal("no budget set, yet the gate stopped the request")
	}
}
