package usage

import (
	"fmt"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// Budget is a session's limits (govibe.cost.sessionBudget and
// cost.sessionTokenBudget; govibe exec --max-cost and --max-tokens),
// counted over the session's totals, its hidden children's requests
// included. Zero is no limit.
type Budget struct {
	Money  float64
	Tokens int64
}

// Set reports whether any limit is set.
func (b Budget) Set() bool { return b.Money > 0 || b.Tokens > 0 }

// Check says whether s reached a limit once the user has let the session
// go on grants times (each grant is another budget's worth). A money
// limit needs prices: without them (s not Priced) only tokens count,
// and Unpriced says so.
func (b Budget) Check(s Session, grants int) *BudgetError {
	n := float64(grants + 1)
	tokens := s.PromptTokens + s.CompletionTokens
	if b.Tokens > 0 && float64(tokens) >= float64(b.Tokens)*n {
		return &BudgetError{Budget: b, Session: s, Limit: fmt.Sprintf("%d tokens", int64(float64(b.Tokens)*n)), Tokens: true}
	}
	if b.Money > 0 && s.Priced && s.Cost >= b.Money*n {
		return &BudgetError{Budget: b, Session: s, Limit: fmt.Sprintf("%.4f", b.Money*n)}
	}
	return nil
}

// Unpriced reports a money limit that cannot be kept: the session's
// requests so far have no prices.
func (b Budget) Unpriced(s Session) bool { return b.Money > 0 && s.Requests > 0 && !s.Priced }

// BudgetError is a reached limit. It is llm.ErrBudget for errors.Is.
type BudgetError struct {
	Budget  Budget
	Session Session
	// Limit is the limit reached, as shown ("0.5000", "200000 tokens");
	// Tokens says it is the token budget.
	Limit  string
	Tokens bool
}

func (e *BudgetError) Error() string {
	spent := fmt.Sprintf("%d tokens", e.Session.PromptTokens+e.Session.CompletionTokens)
	if e.Session.Priced {
		spent = fmt.Sprintf("%.4f (%s)", e.Session.Cost, spent)
	}
	what := "cost budget"
	if e.Tokens {
		what = "token budget"
	}
	return fmt.Sprintf("session %s of %s reached: spent %s", what, e.Limit, spent)
}

func (e *BudgetError) Is(target error) bool { return target == llm.ErrBudget }
