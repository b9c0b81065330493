package tools

import "context"

// FetchProposal is a web_fetch waiting for the user: the URL, its host
// (what an "Always allow" rule names) and what the request would carry
// besides the URL, so the card can show it (header names, never values).
type FetchProposal struct {
	URL        string
	Host       string
	Headers    []string // header names; "Cookie" when a cookie is sent
	ToolCallID string
	// Typed marks a URL the user typed as an @url mention: the user asked
	// for it, so nobody is asked again; deny rules still refuse it.
	Typed bool
}

// FetchDecision is the answer to a FetchProposal.
type FetchDecision struct {
	Allowed bool
	// Reason goes to the model (English); Display is for the person
	// watching ("" shows Reason).
	Reason  string
	Display string
	// ByUser marks a refusal the user chose (not a rule or policy).
	ByUser bool
	// Rule names what approved it without asking (an allow rule, the
	// headless flag), for the card.
	Rule string
}

// FetchApprover confirms web fetches. An Approver that does not implement
// it refuses every fetch, which is the safe default: a fetched URL can
// carry workspace data to any host.
type FetchApprover interface {
	ConfirmFetch(ctx context.Context, p FetchProposal) (FetchDecision, error)
}
