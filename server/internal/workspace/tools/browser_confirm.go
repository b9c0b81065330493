package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// BrowserToolName is the browser sub-agent's tool; also the permission
// rule ("Always allow") that lets it run unasked.
const BrowserToolName = "browser_sub_agent"

// BrowserProposal is a browser sub-agent run waiting for the user: like a
// web fetch, what it opens and types can carry workspace data to any
// public host, so it runs only when the user (or their allow rule) says so.
type BrowserProposal struct {
	Task       string
	URL        string
	Arguments  json.RawMessage // the call's arguments, shown on the card
	ToolCallID string
}

// BrowserDecision is the answer to a BrowserProposal.
type BrowserDecision struct {
	Allowed bool
	// Reason is why it was refused (the user's words or the policy's).
	Reason string
	// Rule names what approved it without asking.
	Rule string
}

// BrowserApprover confirms browser runs. An Approver without it refuses
// them: nobody can say yes.
type BrowserApprover interface {
	ConfirmBrowser(ctx context.Context, p BrowserProposal) (BrowserDecision, error)
}

// ConfirmedBrowser is t (the browser sub-agent) asking env.Approver
// before each run; a refusal is the call's result and t does not run.
func ConfirmedBrowser(t Tool) Tool { return confirmedBrowser{t} }

type confirmedBrowser struct{ Tool }

func (c confirmedBrowser) Run(ctx context.Context, env *Env, args json.RawMessage) (Result, error) {
	var a struct {
		Task string `json:"task"`
		URL  string `json:"url"`
	}
	if err := json.Unmarshal(args, &a); err != nil || strings.TrimSpace(a.Task) == "" {
		// The tool itself reports malformed arguments, and runs nothing:
		// the user is not asked about a call that cannot run.
		return c.Tool.Run(ctx, env, args)
	}
	ba, ok := env.Approver.(BrowserApprover)
	if !ok || env.Approver == nil {
		return FailShown(BrowserToolName+" needs the user's confirmation, which is not available here.",
			env.Tr("Not run: the browser run needs approval and no one is available to approve it.")), nil
	}
	d, err := ba.ConfirmBrowser(ctx, BrowserProposal{Task: a.Task, URL: a.URL, Arguments: args, ToolCallID: CallID(ctx)})
	if err != nil {
		return Result{}, err
	}
	if !d.Allowed {
		why := d.Reason
		if why == "" {
			why = "the user declined the browser run."
		}
		return FailShown(fmt.Sprintf("%s was not run: %s", BrowserToolName, why), env.Tr("Not run: the browser run was declined.")), nil
	}
	r, err := c.Tool.Run(ctx, env, args)
	if err == nil && d.Rule != "" {
		if r.Meta == nil {
			r.Meta = map[string]any{}
		}
		if m, ok := r.Meta.(map[string]any); ok {
			m["approved"] = d.Rule
		}
	}
	return r, err
}
