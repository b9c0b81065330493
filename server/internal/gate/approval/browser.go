package approval

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/permission"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// ConfirmBrowser decides a browser_sub_agent run as a web fetch is
// decided: the browser reaches only public addresses, but what it opens
// and types can carry workspace data to any of them, so a deny rule
// refuses, a user allow rule (browser_sub_agent, in settings or the
// always-allow file) permits, headless runs go ahead only with
// --approve all, and otherwise the user is asked on a tool card whose
// "Always allow" writes that rule.
func (a *Approver) ConfirmBrowser(ctx context.Context, p tools.BrowserProposal) (tools.BrowserDecision, error) {
	d, why := a.evaluate(a.x.workspace(""), permission.Action{Tool: tools.BrowserToolName})
	asked := hookAsk(ctx)
	switch d.Verdict {
	case permission.Deny:
		return tools.BrowserDecision{Reason: why + "."}, nil
	case permission.Allow:
		if asked == "" {
			return tools.BrowserDecision{Allowed: true, Rule: ruleDetail(d.Rule)}, nil
		}
	}
	if h := hookAllow(ctx, d.Verdict); h != nil && asked == "" {
		return tools.BrowserDecision{Allowed: true, Rule: "PreToolUse hook " + h.Detail}, nil
	}
	if a.x.opts.Headless {
		if a.x.opts.Approve == "all" && d.Verdict != permission.Ask && asked == "" {
			return tools.BrowserDecision{Allowed: true, Rule: "--approve all"}, nil
		}
		return tools.BrowserDecision{Reason: "this headless run does not approve browser runs (use --approve all or the allow rule " + tools.BrowserToolName + "); do without the browser or stop and explain."}, nil
	}
	args := string(p.Arguments)
	if len(args) > 4000 {
		args = args[:4000] + "…"
	}
	c := Confirm{SessionID: a.t.SessionID, TurnID: a.t.ID, ToolCallID: p.ToolCallID, Kind: "tool",
		Command: tools.BrowserToolName, Question: args, URL: p.URL}
	if d.Verdict != permission.Ask && asked == "" {
		c.AllowRules = a.x.mcpAllowRules(tools.BrowserToolName)
	}
	ans, err := a.x.host.Ask(ctx, c)
	if err != nil {
		return tools.BrowserDecision{}, err
	}
	a.x.rememberAllow(c, ans)
	return browserDecided(ans), nil
}

func browserDecided(ans Answer) tools.BrowserDecision {
	if ans.Accept {
		return tools.BrowserDecision{Allowed: true}
	}
	why := "the user declined the browser run."
	if r := strings.TrimSpace(ans.Reason); r != "" {
		why = "the user declined the browser run. Reason: " + r
	}
	return tools.BrowserDecision{Reason: why}
}

// ConfirmBrowser answers the restored browser run with the recorded
// answer when it is the same run the user saw; anything else asks again.
func (r *Resumed) ConfirmBrowser(ctx context.Context, p tools.BrowserProposal) (tools.BrowserDecision, error) {
	if r.c.Kind != "tool" || r.c.Command != tools.BrowserToolName || p.ToolCallID != r.c.ToolCallID || !sameArgs(string(p.Arguments), r.c.Question) {
		return r.Approver.ConfirmBrowser(ctx, p)
	}
	r.x.rememberAllow(r.c, r.ans)
	return browserDecided(r.ans), nil
}

var (
	_ tools.BrowserApprover = (*Approver)(nil)
	_ tools.BrowserApprover = (*Resumed)(nil)
)
