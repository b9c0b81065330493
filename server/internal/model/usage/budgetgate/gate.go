// Package budgetgate keeps a session to its budget (cost.sessionBudget,
// cost.sessionTokenBudget; usage.Budget holds the rule) before every model
// request: at the limit the editor asks whether to go on, and each
// Continue grants another budget's worth; headless, or when the user
// stops, the request fails with a *usage.BudgetError (llm.ErrBudget) and
// nothing is sent. It sees the engine only through Deps. Tests:
// TestBudgetPausesAndAsksInTheEditor, TestBudgetStopsHeadlessRuns.
package budgetgate

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/usage"
)

// Meter is the accounting the gate reads; *usage.Meter implements it.
type Meter interface {
	// Root is the session a sub-agent's session counts against.
	Root(sid string) string
	Of(ctx context.Context, sid string) usage.Session
}

// Asker puts a question to the user and waits for the answer (the
// engine's confirmation Broker).
type Asker interface {
	Ask(ctx context.Context, c approval.Confirm) (approval.Answer, error)
}

// Deps are the gate's collaborators.
type Deps struct {
	Settings func() config.Settings
	Meter    Meter
	Asker    Asker
	// Headless never asks: the request fails at the limit.
	Headless bool
	Tr       func(format string, args ...any) string
	Log      *zap.Logger
	// LiveTurn is the id of the session's running turn, "" when idle: the
	// question belongs to it.
	LiveTurn func(sid string) string
}

// Gate holds each root session's pause state: how many times the user let
// it go past its budget (each grant is another budget's worth), and one
// lock per root so that parallel sub-agents reaching the limit together
// ask once. In memory: after a restart the session asks again at its next
// request over the limit.
type Gate struct {
	d      Deps
	mu     sync.Mutex
	grants map[string]int
	asking map[string]*sync.Mutex
	warned map[string]bool // roots told their money budget has no prices
}

// New returns a gate with no grants.
func New(d Deps) *Gate {
	if d.Log == nil {
		d.Log = zap.NewNop()
	}
	return &Gate{d: d, grants: map[string]int{}, asking: map[string]*sync.Mutex{}, warned: map[string]bool{}}
}

func (g *Gate) lockOf(root string) *sync.Mutex {
	g.mu.Lock()
	defer g.mu.Unlock()
	l, ok := g.asking[root]
	if !ok {
		l = &sync.Mutex{}
		g.asking[root] = l
	}
	return l
}

func (g *Gate) grantsOf(root string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.grants[root]
}

// budget is the session budget the settings set.
func (g *Gate) budget() usage.Budget {
	c := g.d.Settings().Cost
	return usage.Budget{Money: c.SessionBudget, Tokens: int64(c.SessionTokenBudget)}
}

// Client checks the session's budget before every request of c.
func (g *Gate) Client(c llm.Client) llm.Client { return &client{Client: c, g: g} }

type client struct {
	llm.Client
	g *Gate
}

func (c *client) Stream(ctx context.Context, req llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	if req.SessionID != "" {
		if err := c.g.Check(ctx, req.SessionID); err != nil {
			return nil, err
		}
	}
	return c.Client.Stream(ctx, req, onEvent)
}

// Check returns nil while the session's root is within its budget (or the
// user granted more), else the *usage.BudgetError, or the ask's error.
func (g *Gate) Check(ctx context.Context, sid string) error {
	b := g.budget()
	if !b.Set() {
		return nil
	}
	d := g.d
	root := d.Meter.Root(sid)
	l := g.lockOf(root)
	l.Lock()
	defer l.Unlock()
	s := d.Meter.Of(ctx, root)
	if b.Unpriced(s) && b.Tokens <= 0 {
		g.mu.Lock()
		first := !g.warned[root]
		g.warned[root] = true
		g.mu.Unlock()
		if first {
			d.Log.Warn("cost.sessionBudget is set but the model has no prices: the budget cannot be kept", zap.String("session", root))
		}
	}
	over := b.Check(s, g.grantsOf(root))
	if over == nil {
		return nil
	}
	if d.Headless {
		return over
	}
	q := d.Tr("This session reached its %s: spent %s. Continue for another budget's worth?", what(d.Tr, over), spent(d.Tr, s))
	ans, err := d.Asker.Ask(ctx, approval.Confirm{SessionID: root, TurnID: d.LiveTurn(root), Kind: "question", Question: q,
		Options: []string{d.Tr("Continue"), d.Tr("Stop")}})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errors.Join(over, err)
	}
	if ans.Accept && (ans.Answer == d.Tr("Continue") || ans.Answer == "Continue") {
		g.mu.Lock()
		g.grants[root]++
		g.mu.Unlock()
		d.Log.Info("session budget extended", zap.String("session", root), zap.String("limit", over.Limit))
		return nil
	}
	return over
}

// what names the limit reached, in the user's language.
func what(tr func(string, ...any) string, be *usage.BudgetError) string {
	if be.Tokens {
		return tr("token budget of %s", be.Limit)
	}
	return tr("cost budget of %s", be.Limit)
}

func spent(tr func(string, ...any) string, s usage.Session) string {
	tokens := fmt.Sprintf("%d", s.PromptTokens+s.CompletionTokens)
	if s.Priced {
		return tr("%.4f (%s tokens)", s.Cost, tokens)
	}
	return tr("%s tokens", tokens)
}

// Stopped is the run's error message for a reached budget.
func Stopped(tr func(string, ...any) string, be *usage.BudgetError) string {
	return tr("Stopped: this session reached its %s (spent %s). Raise govibe.cost.sessionBudget or govibe.cost.sessionTokenBudget (govibe exec: --max-cost, --max-tokens) to go on.",
		what(tr, be), spent(tr, be.Session))
}
