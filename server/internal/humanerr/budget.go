package humanerr

import (
	"fmt"

	"github.com/govibe/govibe/server/internal/usage"
)

// BudgetWhat names the limit reached, in the user's language.
func BudgetWhat(tr func(string, ...any) string, be *usage.BudgetError) string {
	if be.Tokens {
		return tr("token budget of %s", be.Limit)
	}
	return tr("cost budget of %s", be.Limit)
}

// BudgetSpent is what the session has spent: the cost with the tokens when
// the model is priced, else the tokens alone.
func BudgetSpent(tr func(string, ...any) string, s usage.Session) string {
	tokens := fmt.Sprintf("%d", s.PromptTokens+s.CompletionTokens)
	if s.Priced {
		return tr("%.4f (%s tokens)", s.Cost, tokens)
	}
	return tr("%s tokens", tokens)
}

// budgetError is the run's error for a reached budget.
func budgetError(tr func(string, ...any) string, be *usage.BudgetError) Info {
	return Info{Message: tr("Stopped: this session reached its %s (spent %s). Raise govibe.cost.sessionBudget or govibe.cost.sessionTokenBudget (govibe exec: --max-cost, --max-tokens) to go on.",
		BudgetWhat(tr, be), BudgetSpent(tr, be.Session)), Code: "budget", Action: "openSettings"}
}
