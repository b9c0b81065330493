package engine

import (
	"context"
	"errors"
	"sync"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/approval"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/humanerr"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/usage"
)

// budgetGate holds each root session's pause state: how many times the
// user let it go past its budget (each grant is another budget's worth),
// and one lock per root so that parallel sub-agents reaching the limit
// together ask once. In memory: after a restart the session asks again
// at its next request over the limit.
type budgetGate struct {
	mu     sync.Mutex
	grants map[string]int
	asking map[string]*sync.Mutex
	warned map[string]bool // roots told their money budget has no prices
}

func (g *budgetGate) lockOf(root string) *sync.Mutex {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.asking == nil {
		g.asking, g.grants, g.warned = map[string]*sync.Mutex{}, map[string]int{}, map[string]bool{}
	}
	l, ok := g.asking[root]
	if !ok {
		l = &sync.Mutex{}
		g.asking[root] = l
	}
	return l
}

func (g *budgetGate) grantsOf(root string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.grants[root]
}

// budget is the session budget the settings set.
func (e *Engine) budget() usage.Budget {
	c := config.Typed(e.Settings()).Cost
	return usage.Budget{Money: c.SessionBudget, Tokens: int64(c.SessionTokenBudget)}
}

// budgetClient checks the session's budget before every request: at the
// limit the editor asks whether to go on; headless, or when the user
// stops, the request fails with a *usage.BudgetError (llm.ErrBudget) and
// nothing is sent.
type budgetClient struct {
	llm.Client
	e *Engine
}

func (c *budgetClient) Stream(ctx context.Context, req llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	if req.SessionID != "" {
		if err := c.e.checkBudget(ctx, req.SessionID); err != nil {
			return nil, err
		}
	}
	return c.Client.Stream(ctx, req, onEvent)
}

func (e *Engine) checkBudget(ctx context.Context, sid string) error {
	b := e.budget()
	if !b.Set() {
		return nil
	}
	root := e.Meter.Root(sid)
	g := &e.budgets
	l := g.lockOf(root)
	l.Lock()
	defer l.Unlock()
	s := e.Meter.Of(ctx, root)
	if b.Unpriced(s) && b.Tokens <= 0 {
		g.mu.Lock()
		first := !g.warned[root]
		g.warned[root] = true
		g.mu.Unlock()
		if first {
			e.log.Warn("cost.sessionBudget is set but the model has no prices: the budget cannot be kept", zap.String("session", root))
		}
	}
	over := b.Check(s, g.grantsOf(root))
	if over == nil {
		return nil
	}
	if e.opts.Headless {
		return over
	}
	q := e.Tr("This session reached its %s: spent %s. Continue for another budget's worth?", humanerr.BudgetWhat(e.Tr, over), humanerr.BudgetSpent(e.Tr, s))
	turnID := ""
	if t := e.liveTurn(root); t != nil {
		turnID = t.id
	}
	ans, err := e.Broker.Ask(ctx, approval.Confirm{SessionID: root, TurnID: turnID, Kind: "question", Question: q,
		Options: []string{e.Tr("Continue"), e.Tr("Stop")}})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errors.Join(over, err)
	}
	if ans.Accept && (ans.Answer == e.Tr("Continue") || ans.Answer == "Continue") {
		g.mu.Lock()
		g.grants[root]++
		g.mu.Unlock()
		e.log.Info("session budget extended", zap.String("session", root), zap.String("limit", over.Limit))
		return nil
	}
	return over
}
