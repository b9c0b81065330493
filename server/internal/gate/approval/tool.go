package approval

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/permission"
	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// ConfirmTool decides an MCP tool call: deny rules refuse, a user allow
// rule (mcp__server__tool, mcp__server__* or mcp__server, from settings or
// the always-allow file) permits, the headless policy answers for
// --approve all, and otherwise the user is asked like for a shell command.
func (a *Approver) ConfirmTool(ctx context.Context, p tools.ToolProposal) (tools.ToolDecision, error) {
	cs := a.x.host.Settings()
	prefix := mcpclient.ToolName(p.Server, "")
	serverRule := func(lists ...[]string) string {
		for _, list := range lists {
			for _, r := range list {
				if r = strings.TrimSpace(r); r == prefix+"*" || r == strings.TrimSuffix(prefix, "__") {
					return r
				}
			}
		}
		return ""
	}
	if r := serverRule(cs.Permissions.Deny, cs.Permissions.Workspace.Deny); r != "" {
		return tools.ToolDecision{Reason: "denied by your permission rule " + r}, nil
	}
	d, why := a.evaluate(a.x.workspace(""), permission.Action{Tool: p.Tool})
	if d.Verdict == permission.Deny {
		return tools.ToolDecision{Reason: why}, nil
	}
	// A PreToolUse hook's ask beats every allow; its allow stands in for
	// the person where no rule decided.
	asked := hookAsk(ctx)
	if d.Verdict == permission.Allow && asked == "" {
		return tools.ToolDecision{Allowed: true, Rule: ruleDetail(d.Rule)}, nil
	}
	// Only the user's allow rules permit; a workspace's never do.
	if r := serverRule(cs.Permissions.Allow, a.x.alwaysAllowed()); r != "" && d.Verdict != permission.Ask && asked == "" {
		return tools.ToolDecision{Allowed: true, Rule: r}, nil
	}
	if h := hookAllow(ctx, d.Verdict); h != nil && asked == "" {
		return tools.ToolDecision{Allowed: true, Rule: "PreToolUse hook " + h.Detail}, nil
	}
	if a.x.opts.Headless {
		if a.x.opts.Approve == "all" && d.Verdict != permission.Ask && asked == "" {
			return tools.ToolDecision{Allowed: true, Rule: "--approve all"}, nil
		}
		return tools.ToolDecision{Reason: "this headless run does not approve MCP tool calls (use --approve all or an allow rule " + p.Tool + ")"}, nil
	}
	args := string(p.Arguments)
	if len(args) > 4000 {
		args = args[:4000] + "…"
	}
	c := Confirm{SessionID: a.t.SessionID, TurnID: a.t.ID, ToolCallID: p.ToolCallID, Kind: "tool",
		Command: p.Tool, Question: args, Server: p.Server, Tool: p.Remote}
	if d.Verdict != permission.Ask && asked == "" && p.Server != "" {
		// An ask rule or hook would still ask: offering "Always allow"
		// would write a rule that never applies. A built-in tool a hook
		// asks about has no rule to offer.
		c.AllowRules = a.x.mcpAllowRules(p.Tool)
	}
	ans, err := a.x.host.Ask(ctx, c)
	if err != nil {
		return tools.ToolDecision{}, err
	}
	a.x.rememberAllow(c, ans)
	return tools.ToolDecision{Allowed: ans.Accept, Reason: ans.Reason}, nil
}
