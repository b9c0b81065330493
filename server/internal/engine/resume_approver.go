package engine

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/tools"
)

// resumedApprover answers the call a restored question was about with the
// answer the user gave after the restart, and asks as usual for every
// other call. The permission rules and reviews already ran before the
// question was first asked, so they are not run again; the staleness
// checks are: a file that changed on disk, or a proposal that no longer
// comes out the same, is refused instead of applied. Safe for concurrent
// use (its fields are read-only).
type resumedApprover struct {
	*approver
	c   Confirm
	ans Answer
}

func (r *resumedApprover) ConfirmEdit(ctx context.Context, p tools.EditProposal) (tools.EditDecision, error) {
	if r.c.Kind != "edit" || p.ToolCallID != r.c.ToolCallID {
		return r.approver.ConfirmEdit(ctx, p)
	}
	if p.Path != r.c.Path || p.IsNew != r.c.IsNew || p.Delete != r.c.Delete || p.Original != r.c.Original {
		return tools.EditDecision{Note: "not applied: " + p.RelPath + " changed on disk while the proposal waited for the user across GoVibe's restart; re-read it and propose the edit again."}, nil
	}
	if p.Proposed != r.c.Proposed {
		return tools.EditDecision{Note: "not applied: after GoVibe's restart this edit of " + p.RelPath + " no longer produces the proposal the user answered; re-read the file and propose the edit again."}, nil
	}
	return r.decided(ctx, p, r.ans)
}

func (r *resumedApprover) ConfirmShell(ctx context.Context, p tools.ShellProposal) (tools.ShellDecision, error) {
	if r.c.Kind != "shell" || p.ToolCallID != r.c.ToolCallID {
		return r.approver.ConfirmShell(ctx, p)
	}
	if !r.ans.Accept {
		return refuse(strings.TrimSpace(r.ans.Reason), "")
	}
	// The user approved the command shown, which the shell editor may
	// have rewritten from the model's, or their own edit of it.
	cmd := firstNonEmpty(r.c.Command, p.Command)
	if strings.TrimSpace(r.ans.Command) != "" {
		cmd = r.ans.Command
	}
	r.e.recordRun(ctx, r.t.sessionID, p.Cwd, cmd, workspaceFingerprint(r.e.opts.Roots))
	return tools.ShellDecision{Allowed: true, Command: cmd}, nil
}
