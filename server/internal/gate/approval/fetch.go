package approval

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/allowrules"
	"github.com/govibe/govibe/server/internal/gate/permission"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// ConfirmFetch decides a web_fetch: a WebFetch(domain:…) deny rule
// refuses, an ask rule asks, a user allow rule (settings or the
// always-allow file) permits, an @url mention the user typed is fetched
// (asking for what was just asked for would only add a click); headless runs fetch otherwise only with
// --approve all; the user is asked in the editor, with "Always allow" for
// the host. A fetched URL can carry workspace data to any host, which is
// why a read-only tool still asks.
func (a *Approver) ConfirmFetch(ctx context.Context, p tools.FetchProposal) (tools.FetchDecision, error) {
	d, why := a.evaluate(a.x.workspace(""), permission.Action{Tool: permission.ToolWebFetch, URL: p.URL})
	asked := hookAsk(ctx)
	switch d.Verdict {
	case permission.Deny:
		return tools.FetchDecision{Reason: why + ".", Display: a.x.host.Tr("Not fetched: your permission rule %s denies it.", d.Rule.String())}, nil
	case permission.Allow:
		if asked == "" {
			return tools.FetchDecision{Allowed: true, Rule: ruleDetail(d.Rule)}, nil
		}
	}
	if h := hookAllow(ctx, d.Verdict); h != nil && asked == "" {
		return tools.FetchDecision{Allowed: true, Rule: "PreToolUse hook " + h.Detail}, nil
	}
	if p.Typed && asked == "" {
		return tools.FetchDecision{Allowed: true, Rule: "@url"}, nil
	}
	if a.x.opts.Headless {
		if a.x.opts.Approve == "all" && d.Verdict != permission.Ask && asked == "" {
			return tools.FetchDecision{Allowed: true, Rule: "--approve all"}, nil
		}
		rule := fetchRule(p.Host)
		return tools.FetchDecision{Reason: "this headless run does not approve web fetches (use --approve all or the allow rule " + rule + ").",
			Display: a.x.host.Tr("Not fetched: a headless run fetches only with --approve all or an allow rule such as %s.", rule)}, nil
	}
	c := Confirm{SessionID: a.t.SessionID, TurnID: a.t.ID, ToolCallID: p.ToolCallID, Kind: "fetch",
		URL: p.URL, Headers: p.Headers}
	if d.Verdict != permission.Ask {
		// An ask rule would still ask: a rule written now would never apply.
		c.AllowRules = a.x.fetchAllowRules(p.Host)
	}
	ans, err := a.x.host.Ask(ctx, c)
	if err != nil {
		return tools.FetchDecision{}, err
	}
	a.x.rememberAllow(c, ans)
	return fetchDecided(ans), nil
}

func fetchDecided(ans Answer) tools.FetchDecision {
	if !ans.Accept {
		return tools.FetchDecision{ByUser: true, Reason: strings.TrimSpace(ans.Reason)}
	}
	return tools.FetchDecision{Allowed: true}
}

// fetchRule is the WebFetch rule naming host (and its subdomains).
func fetchRule(host string) string { return "WebFetch(domain:" + host + ")" }

// fetchAllowRules proposes the host's rule; nothing for a host the rule
// grammar cannot name (an IPv6 literal).
func (e *Approvals) fetchAllowRules(host string) []string {
	if e.opts.AllowRules.Path() == "" || host == "" {
		return nil
	}
	if r, err := allowrules.Validate(fetchRule(host)); err == nil {
		return []string{r}
	}
	return nil
}

var (
	_ tools.FetchApprover = (*Approver)(nil)
	_ tools.FetchApprover = (*Resumed)(nil)
)
