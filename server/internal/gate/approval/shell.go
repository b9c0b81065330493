package approval

import (
	"context"
	"github.com/govibe/govibe/server/internal/gate/osbox"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/gate/permission"
	"github.com/govibe/govibe/server/internal/gate/shellcheck"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// toShellAnalysis converts the static analysis for the UI.
func toShellAnalysis(a shellcheck.Analysis) ShellAnalysis {
	return ShellAnalysis{Class: a.Class.String(), Reasons: reviewers.Reasons(a)}
}

// refuse declines a command: reason is for the model (English), display
// for the person watching, in their language ("" when they gave the
// reason themselves).
func refuse(reason, display string) (tools.ShellDecision, error) {
	return tools.ShellDecision{Reason: reason, Display: display}, nil
}

// ConfirmShell runs the shell pipeline: static analysis, permission
// rules, anti-repeat, the shell editor and security reviewer (when
// enabled), then the user or the auto-approve policy. A dangerous command
// always needs a human unless a user-level rule allows it by pattern.
func (a *Approver) ConfirmShell(ctx context.Context, p tools.ShellProposal) (tools.ShellDecision, error) {
	e, sid := a.x, a.t.SessionID
	cs := e.host.Settings()
	ws := e.workspace(p.Cwd)
	cmd := p.Command
	an := shellcheck.Analyze(cmd, ws)
	if p.Denial != nil {
		return a.expandSandbox(ctx, p, an)
	}
	sandboxed := cs.Sandbox.Enabled && e.sandbox().Available()
	// What a command a person (or their rule or flag) approved may do: write
	// the workspace, reach the allowed domains, and, for git, its metadata.
	approved := tools.SandboxGrant{Write: true, Network: true, GitWrite: runsGit(an)}
	if an.UseTool != nil && an.Class != shellcheck.Dangerous {
		return refuse("not run: "+an.UseTool.Message+" Use the "+an.UseTool.Tool+" tool instead of the shell for this.",
			e.host.Tr("Not run: the %s tool does this better than the shell; the model was asked to use it.", an.UseTool.Tool))
	}
	perm, permWhy := a.evaluate(ws, permission.Action{Tool: permission.ToolBash, Command: cmd, Analysis: &an})
	if perm.Verdict == permission.Deny {
		return refuse("not run: "+permWhy+".", e.host.Tr("Not run: your permission rule %s denies it.", perm.Rule.String()))
	}
	// Read rules cover what the command reads, not only the read tools.
	if rd, why := e.shellReads(ws, cmd, an); rd.Verdict == permission.Deny {
		return refuse("not run: "+why+".", e.host.Tr("Not run: your permission rule %s denies reading %s.", rd.Rule.String(), e.DisplayPath(rd.Command)))
	} else if rd.Verdict == permission.Ask && perm.Verdict != permission.Ask {
		perm, permWhy = rd, why
	}
	fp := workspaceFingerprint(e.opts.Roots)
	if e.repeated(ctx, sid, p.Cwd, cmd, fp) {
		return refuse(repeatHint, e.host.Tr("Not run: this exact command already ran twice and nothing in the workspace changed since."))
	}
	var card *reviewers.Card
	if e.reviewers.Enabled(review.KindShell) {
		res, err := e.reviewers.Shell(ctx, a.target(""), a.t.Request, p, cmd, an)
		if err != nil {
			return tools.ShellDecision{}, err
		}
		if res.Refusal != "" {
			return refuse(res.Refusal, e.host.Tr("Not run: the security review rejected the command."))
		}
		if res.Command != cmd {
			cmd, an = res.Command, res.Analysis
			perm, permWhy = a.evaluate(ws, permission.Action{Tool: permission.ToolBash, Command: cmd, Analysis: &an})
			if rd, why := e.shellReads(ws, cmd, an); rd.Verdict == permission.Deny {
				return refuse("not run: "+why+".", e.host.Tr("Not run: your permission rule %s denies reading %s.", rd.Rule.String(), e.DisplayPath(rd.Command)))
			} else if rd.Verdict == permission.Ask && perm.Verdict != permission.Ask {
				perm, permWhy = rd, why
			}
		}
		card = res.Card
	}

	dangerous := an.Class == shellcheck.Dangerous
	ruleAllows := perm.Verdict == permission.Allow && (!dangerous || e.allowsDangerous(ws, an))
	var needHuman []string
	if dangerous && !ruleAllows {
		needHuman = append(needHuman, "the command is classified dangerous ("+strings.Join(toShellAnalysis(an).Reasons, "; ")+")")
	}
	if perm.Verdict == permission.Ask {
		needHuman = append(needHuman, permWhy)
	}
	if card != nil && card.Unavailable != "" {
		needHuman = append(needHuman, "review unavailable: "+card.Unavailable)
	}
	if why := hookAsk(ctx); why != "" {
		needHuman = append(needHuman, why)
	}
	grant := approved
	allow := func(command string, auto *tools.AutoApproval) (tools.ShellDecision, error) {
		e.recordRun(ctx, sid, p.Cwd, command, fp)
		return tools.ShellDecision{Allowed: true, Command: command, Auto: auto, Grant: grant}, nil
	}
	// Without a sandbox nothing runs unasked on the analysis' word alone
	// (fail closed); the user's own rules and flags still apply.
	readOnlyAuto := sandboxed && an.Class == shellcheck.ReadOnly && cs.AutoApprove.ReadOnlyCommands
	// In the sandbox, anything that does not set out to change the
	// workspace may run unasked, read-only and offline: the kernel, not
	// the analysis, keeps it from writing or calling out.
	sandboxAuto := sandboxed && cs.Sandbox.AutoApprove && !readOnlyAuto &&
		an.Class != shellcheck.Mutating && an.Class != shellcheck.Dangerous && perm.Verdict != permission.Ask
	// Why no one is asked, in the order the checks below grant it.
	auto := shellAutoApproval(ruleAllows, perm, readOnlyAuto, an)
	// A hook's allow stands in for the person where no rule decided (so
	// the command gets what a person's yes grants, in the sandbox); a
	// dangerous command still needs one (needHuman).
	hooked := hookAllow(ctx, perm.Verdict)
	if auto == nil {
		auto = hooked
	}
	if !ruleAllows && hooked == nil && (readOnlyAuto || sandboxAuto) {
		grant = tools.SandboxGrant{}
		if sandboxAuto {
			auto = &tools.AutoApproval{By: tools.AutoBySetting, Detail: "govibe.sandbox.autoApprove"}
		}
	}
	if e.opts.Headless {
		switch {
		case len(needHuman) > 0:
			return refuse("refused: "+strings.Join(needHuman, "; ")+", and headless runs never run such commands without a human (or, for dangerous commands, a matching user permission rule).",
				e.host.Tr("Refused: this command needs a person's approval, and a headless run cannot ask for it."))
		case ruleAllows, readOnlyAuto, hooked != nil:
			return allow(cmd, auto)
		case e.opts.Approve == "all":
			grant = approved
			return allow(cmd, &tools.AutoApproval{By: tools.AutoByFlag, Detail: "--approve all"})
		case sandboxAuto:
			return allow(cmd, auto)
		default:
			return refuse("refused: this headless run does not approve commands (use --approve all).",
				e.host.Tr("Refused: this headless run does not approve commands (use --approve all)."))
		}
	}
	if len(needHuman) == 0 && (ruleAllows || readOnlyAuto || sandboxAuto || hooked != nil) {
		return allow(cmd, auto)
	}
	if len(needHuman) == 0 && !cs.ConfirmShellCommand {
		return allow(cmd, &tools.AutoApproval{By: tools.AutoBySetting, Detail: "govibe.confirmShellCommand"})
	}
	analysis := toShellAnalysis(an)
	c := Confirm{SessionID: sid, TurnID: a.t.ID, ToolCallID: p.ToolCallID, Kind: "shell",
		Command: cmd, Cwd: p.Cwd, Analysis: &analysis, Review: card}
	if perm.Verdict != permission.Ask {
		// Under an ask rule an allow rule would never apply.
		c.AllowRules = e.shellAllowRules(an)
	}
	ans, err := e.host.Ask(ctx, c)
	if err != nil {
		return tools.ShellDecision{}, err
	}
	if !ans.Accept {
		return tools.ShellDecision{Reason: strings.TrimSpace(ans.Reason), ByUser: true}, nil
	}
	if edited := strings.TrimSpace(ans.Command); edited != "" && edited != strings.TrimSpace(cmd) {
		// The rules were proposed for the command shown, not the user's
		// edit of it: run the edit once, write no rule.
		grant = tools.SandboxGrant{Write: true, Network: true, GitWrite: runsGit(shellcheck.Analyze(ans.Command, ws))}
		return allow(ans.Command, nil)
	}
	e.rememberAllow(c, ans)
	return allow(cmd, nil)
}

// shellAutoApproval names what lets a command run unasked: an allow rule
// first (it is the more specific grant), then the read-only setting.
func shellAutoApproval(ruleAllows bool, perm permission.Decision, readOnlyAuto bool, an shellcheck.Analysis) *tools.AutoApproval {
	switch {
	case ruleAllows:
		return &tools.AutoApproval{By: tools.AutoByRule, Detail: ruleDetail(perm.Rule)}
	case readOnlyAuto:
		return &tools.AutoApproval{By: tools.AutoByReadOnly, Detail: an.Reason}
	}
	return nil
}

const repeatHint = "not run: this exact command already ran twice and nothing in the workspace changed since, so it would give the same result. " +
	"Try something else: read the output you already have, change the code, run a narrower command, or ask the user."

// sandbox is the machine's OS sandbox as Options says (osbox.Detect).
func (e *Approvals) sandbox() osbox.Status {
	if e.opts.Sandbox != nil {
		return e.opts.Sandbox()
	}
	return osbox.Detect()
}
