package approval

import (
	"context"
	"github.com/govibe/govibe/server/internal/gate/shellcheck"
	"strings"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Resumed answers the call a restored question was about with the
// answer the user gave after the restart, and asks as usual for every
// other call. The permission rules and reviews already ran before the
// question was first asked, so they are not run again; the staleness
// checks are: a file that changed on disk, or a proposal that no longer
// comes out the same, is refused instead of applied. Safe for concurrent
// use (its fields are read-only).
type Resumed struct {
	*Approver
	c   Confirm
	ans Answer
}

// Resume is a's turn resumed after a restart with c answered by ans.
func Resume(a *Approver, c Confirm, ans Answer) *Resumed {
	return &Resumed{Approver: a, c: c, ans: ans}
}

func (r *Resumed) ConfirmEdit(ctx context.Context, p tools.EditProposal) (tools.EditDecision, error) {
	if r.c.Kind != "edit" || p.ToolCallID != r.c.ToolCallID {
		return r.Approver.ConfirmEdit(ctx, p)
	}
	if p.Path != r.c.Path || p.IsNew != r.c.IsNew || p.Delete != r.c.Delete || p.Original != r.c.Original {
		return tools.EditDecision{Note: "not applied: " + p.RelPath + " changed on disk while the proposal waited for the user across GoVibe's restart; re-read it and propose the edit again."}, nil
	}
	if p.Proposed != r.c.Proposed {
		return tools.EditDecision{Note: "not applied: after GoVibe's restart this edit of " + p.RelPath + " no longer produces the proposal the user answered; re-read the file and propose the edit again."}, nil
	}
	r.x.rememberAllow(r.c, r.ans)
	return r.decided(ctx, p, r.ans)
}

func (r *Resumed) ConfirmShell(ctx context.Context, p tools.ShellProposal) (tools.ShellDecision, error) {
	if r.c.Kind != "shell" || p.ToolCallID != r.c.ToolCallID {
		return r.Approver.ConfirmShell(ctx, p)
	}
	if !r.ans.Accept {
		// The user declined it before the restart: say so, as a decline in
		// the live flow does (the card marks it the user's choice).
		return tools.ShellDecision{Reason: strings.TrimSpace(r.ans.Reason), ByUser: true}, nil
	}
	// The user approved the command shown, which the shell editor may
	// have rewritten from the model's, or their own edit of it.
	cmd := firstNonEmpty(r.c.Command, p.Command)
	if edited := strings.TrimSpace(r.ans.Command); edited != "" && edited != strings.TrimSpace(cmd) {
		cmd = r.ans.Command
	} else {
		r.x.rememberAllow(r.c, r.ans)
	}
	r.x.recordRun(ctx, r.t.SessionID, p.Cwd, cmd, workspaceFingerprint(r.x.opts.Roots))
	if p.Denial != nil {
		// The recorded yes was for running the command, not for widening
		// the sandbox after a denial: that is asked afresh.
		return r.Approver.ConfirmShell(ctx, p)
	}
	ws := r.x.workspace(p.Cwd)
	return tools.ShellDecision{Allowed: true, Command: cmd,
		Grant: tools.SandboxGrant{Write: true, Network: true, GitWrite: runsGit(shellcheck.Analyze(cmd, ws))}}, nil
}

// ConfirmTool answers the restored MCP call with the recorded answer. The
// call runs again only when it is the same tool with the same arguments
// the user saw; anything else asks again.
func (r *Resumed) ConfirmTool(ctx context.Context, p tools.ToolProposal) (tools.ToolDecision, error) {
	if r.c.Kind != "tool" || p.ToolCallID != r.c.ToolCallID {
		return r.Approver.ConfirmTool(ctx, p)
	}
	if p.Tool != r.c.Command || !sameArgs(string(p.Arguments), r.c.Question) {
		return r.Approver.ConfirmTool(ctx, p)
	}
	r.x.rememberAllow(r.c, r.ans)
	return tools.ToolDecision{Allowed: r.ans.Accept, Reason: strings.TrimSpace(r.ans.Reason)}, nil
}

// ConfirmFetch answers the restored fetch when it is the same URL the
// user saw; anything else asks again.
func (r *Resumed) ConfirmFetch(ctx context.Context, p tools.FetchProposal) (tools.FetchDecision, error) {
	if r.c.Kind != "fetch" || p.ToolCallID != r.c.ToolCallID || p.URL != r.c.URL {
		return r.Approver.ConfirmFetch(ctx, p)
	}
	r.x.rememberAllow(r.c, r.ans)
	return fetchDecided(r.ans), nil
}

// sameArgs compares the call's arguments with those shown on the card
// (cut at 4,000 characters there).
func sameArgs(args, shown string) bool {
	if len(args) > 4000 {
		args = args[:4000] + "…"
	}
	return args == shown
}

// resumedAnswerKey (WithResumedAnswer) carries the answer a restored question got, for the
// call it was about, to code that asks outside the approver (the plan
// review of create_todo_list).
type resumedAnswerKey struct{}

type resumedAnswerVal struct {
	callID string
	ans    Answer
}

func WithResumedAnswer(ctx context.Context, callID string, a Answer) context.Context {
	return context.WithValue(ctx, resumedAnswerKey{}, resumedAnswerVal{callID: callID, ans: a})
}

// resumedAnswer is the recorded answer for the tool call running in ctx
// (tools.CallID), if the question about it was answered after a restart.
// Other calls of the resumed run ask as usual.
func resumedAnswer(ctx context.Context) (Answer, bool) {
	v, ok := ctx.Value(resumedAnswerKey{}).(resumedAnswerVal)
	if !ok || v.callID == "" || v.callID != tools.CallID(ctx) {
		return Answer{}, false
	}
	return v.ans, true
}
