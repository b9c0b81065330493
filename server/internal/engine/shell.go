package engine

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/permission"
	"github.com/govibe/govibe/server/internal/review"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/shellcheck"
	"github.com/govibe/govibe/server/internal/store"
	"github.com/govibe/govibe/server/internal/tools"
)

const (
	// recentForReview is how many past commands the security reviewer sees.
	recentForReview = 5
)

// toShellAnalysis converts the static analysis for the UI.
func toShellAnalysis(a shellcheck.Analysis) ShellAnalysis {
	reasons := append([]string(nil), a.Reasons...)
	if a.ParseError != "" && len(reasons) == 0 {
		reasons = append(reasons, "the command does not parse: "+a.ParseError)
	}
	if a.UseTool != nil {
		reasons = append(reasons, a.UseTool.Message)
	}
	if reasons == nil {
		reasons = []string{}
	}
	return ShellAnalysis{Class: a.Class.String(), Reasons: reasons}
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
func (a *approver) ConfirmShell(ctx context.Context, p tools.ShellProposal) (tools.ShellDecision, error) {
	e, sid := a.e, a.t.sessionID
	v := e.Settings()
	cs := config.Typed(v)
	ws := e.workspace(p.Cwd)
	cmd := p.Command
	an := shellcheck.Analyze(cmd, ws)
	if an.UseTool != nil && an.Class != shellcheck.Dangerous {
		return refuse("not run: "+an.UseTool.Message+" Use the "+an.UseTool.Tool+" tool instead of the shell for this.",
			e.tr("Not run: the %s tool does this better than the shell; the model was asked to use it.", an.UseTool.Tool))
	}
	perm, permWhy := e.evaluate(ws, permission.Action{Tool: permission.ToolBash, Command: cmd, Analysis: &an})
	if perm.Verdict == permission.Deny {
		return refuse("not run: "+permWhy+".", e.tr("Not run: your permission rule %s denies it.", perm.Rule.String()))
	}
	// Read rules cover what the command reads, not only the read tools.
	if rd, why := e.shellReads(ws, cmd, an); rd.Verdict == permission.Deny {
		return refuse("not run: "+why+".", e.tr("Not run: your permission rule %s denies reading %s.", rd.Rule.String(), e.displayPath(rd.Command)))
	} else if rd.Verdict == permission.Ask && perm.Verdict != permission.Ask {
		perm, permWhy = rd, why
	}
	fp := workspaceFingerprint(e.opts.Roots)
	if e.repeated(ctx, sid, p.Cwd, cmd, fp) {
		return refuse(repeatHint, e.tr("Not run: this exact command already ran twice and nothing in the workspace changed since."))
	}
	var card *ReviewCard
	if rs := e.reviewSettings(shellReviewSettings); rs.enabled {
		res, err := a.reviewShell(ctx, p, cmd, an, rs)
		if err != nil {
			return tools.ShellDecision{}, err
		}
		if res.refusal != "" {
			return refuse(res.refusal, e.tr("Not run: the security review rejected the command."))
		}
		if res.command != cmd {
			cmd, an = res.command, res.analysis
			perm, permWhy = e.evaluate(ws, permission.Action{Tool: permission.ToolBash, Command: cmd, Analysis: &an})
			if rd, why := e.shellReads(ws, cmd, an); rd.Verdict == permission.Deny {
				return refuse("not run: "+why+".", e.tr("Not run: your permission rule %s denies reading %s.", rd.Rule.String(), e.displayPath(rd.Command)))
			} else if rd.Verdict == permission.Ask && perm.Verdict != permission.Ask {
				perm, permWhy = rd, why
			}
		}
		card = res.card
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
	allow := func(command string, auto *tools.AutoApproval) (tools.ShellDecision, error) {
		e.recordRun(ctx, sid, p.Cwd, command, fp)
		return tools.ShellDecision{Allowed: true, Command: command, Auto: auto}, nil
	}
	readOnlyAuto := an.Class == shellcheck.ReadOnly && cs.AutoApprove.ReadOnlyCommands
	// Why no one is asked, in the order the checks below grant it.
	auto := shellAutoApproval(ruleAllows, perm, readOnlyAuto, an)
	if e.opts.Headless {
		switch {
		case len(needHuman) > 0:
			return refuse("refused: "+strings.Join(needHuman, "; ")+", and headless runs never run such commands without a human (or, for dangerous commands, a matching user permission rule).",
				e.tr("Refused: this command needs a person's approval, and a headless run cannot ask for it."))
		case ruleAllows, readOnlyAuto:
			return allow(cmd, auto)
		case e.opts.Approve == "all":
			return allow(cmd, &tools.AutoApproval{By: tools.AutoByFlag, Detail: "--approve all"})
		default:
			return refuse("refused: this headless run does not approve commands (use --approve all).",
				e.tr("Refused: this headless run does not approve commands (use --approve all)."))
		}
	}
	if len(needHuman) == 0 && (ruleAllows || readOnlyAuto) {
		return allow(cmd, auto)
	}
	if len(needHuman) == 0 && !cs.ConfirmShellCommand {
		return allow(cmd, &tools.AutoApproval{By: tools.AutoBySetting, Detail: "govibe.confirmShellCommand"})
	}
	analysis := toShellAnalysis(an)
	c := Confirm{SessionID: sid, TurnID: a.t.id, ToolCallID: p.ToolCallID, Kind: "shell",
		Command: cmd, Cwd: p.Cwd, Analysis: &analysis, Review: card}
	if perm.Verdict != permission.Ask {
		// Under an ask rule an allow rule would never apply.
		c.AllowRules = e.shellAllowRules(an)
	}
	ans, err := e.Broker.Ask(ctx, c)
	if err != nil {
		return tools.ShellDecision{}, err
	}
	if !ans.Accept {
		return tools.ShellDecision{Reason: strings.TrimSpace(ans.Reason), ByUser: true}, nil
	}
	if edited := strings.TrimSpace(ans.Command); edited != "" && edited != strings.TrimSpace(cmd) {
		// The rules were proposed for the command shown, not the user's
		// edit of it: run the edit once, write no rule.
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
		return &tools.AutoApproval{By: tools.AutoByRule, Detail: perm.Rule.String()}
	case readOnlyAuto:
		return &tools.AutoApproval{By: tools.AutoByReadOnly, Detail: an.Reason}
	}
	return nil
}

const repeatHint = "not run: this exact command already ran twice and nothing in the workspace changed since, so it would give the same result. " +
	"Try something else: read the output you already have, change the code, run a narrower command, or ask the user."

// shellReview is what the editor and the security reviewer decided.
type shellReview struct {
	command  string
	analysis shellcheck.Analysis
	card     *ReviewCard
	// refusal is set when the security reviewer rejected every version.
	refusal string
}

// reviewShell alternates the shell editor and the security reviewer for
// up to rs.attempts rounds: each rejection goes back to the editor, which
// may rewrite the command to address it. A rewrite is re-analysed and
// dropped when it is worse than what it replaces.
func (a *approver) reviewShell(ctx context.Context, p tools.ShellProposal, cmd string, an shellcheck.Analysis, rs reviewSettings) (shellReview, error) {
	e, sid := a.e, a.t.sessionID
	ws := e.workspace(p.Cwd)
	in := review.ShellInput{Request: a.t.text, Todo: e.currentTodo(ctx, sid), Cwd: p.Cwd, OS: e.opts.HostInfo.OS,
		Shell: firstNonEmpty(e.opts.HostInfo.Shell, DefaultShell()), Recent: e.recentCommands(ctx, sid, recentForReview), Original: cmd}
	res := shellReview{command: cmd, analysis: an}
	rt := a.target("command " + oneLine(cmd))
	for round := 1; round <= rs.attempts; round++ {
		in.Command = res.command
		if r, model, err := e.reviewRunner(sid, rs); err == nil {
			rw := r.RewriteShell(ctx, in)
			ert := rt
			ert.title = "command editor " + oneLine(res.command)
			e.recordReview(ert, model, rw.Transcript, &ReviewCard{Unavailable: rw.Unavailable})
			if ctx.Err() != nil {
				return shellReview{}, ctx.Err()
			}
			if nc := rw.Rewrite.Command; rw.Unavailable == "" && nc != res.command {
				if nan, ok := a.acceptRewrite(ws, res.analysis, nc); ok {
					res.command, res.analysis = nc, nan
					e.Bus.Publish(Event{SessionID: sid, TurnID: rt.turnID, MessageID: rt.messageID, Kind: KindNotice,
						Text: e.tr("The command editor rewrote the command as: %s (%s)", nc, firstNonEmpty(rw.Rewrite.Reason, e.tr("no reason given")))})
				}
			}
		}
		in.Command, in.Class, in.Reasons = res.command, res.analysis.Class.String(), toShellAnalysis(res.analysis).Reasons
		res.card = e.runReview(ctx, rt, shellReviewSettings, review.KindShell, in.SecurityPrompt())
		if err := ctx.Err(); err != nil {
			return shellReview{}, err
		}
		if res.card.Unavailable != "" || res.card.Approved {
			return res, nil
		}
		in.Previous = fromProblems(res.card.Problems)
	}
	res.refusal = "not run: the security review rejected the command (the user was not asked):\n" + res.card.Feedback() +
		"\nRethink the step: make the command safer or narrower, or explain to the user why it is needed."
	return res, nil
}

// acceptRewrite re-analyses an editor's rewrite; it must parse, need no
// dedicated tool, be no more harmful than the command it replaces, and
// not be denied by a rule.
func (a *approver) acceptRewrite(ws shellcheck.Workspace, before shellcheck.Analysis, command string) (shellcheck.Analysis, bool) {
	an := shellcheck.Analyze(command, ws)
	if an.ParseError != "" || an.UseTool != nil || an.Class > before.Class {
		return an, false
	}
	if d, _ := a.e.evaluate(ws, permission.Action{Tool: permission.ToolBash, Command: command, Analysis: &an}); d.Verdict == permission.Deny {
		return an, false
	}
	return an, true
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// SetCurrentTodoItem tells the security reviewer which todo item the
// session is working on ("" when none). The scheduler calls it as it
// dispatches items.
func (e *Engine) SetCurrentTodoItem(ctx context.Context, sessionID, item string) error {
	return sessionstate.Set(ctx, e.Store, sessionID, sessionstate.TodoItem, item)
}

func (e *Engine) currentTodo(ctx context.Context, sid string) string {
	return sessionstate.Lookup(ctx, e.Store, sid, sessionstate.TodoItem)
}

// recentCommands are the session's last shell commands with their exit
// codes, oldest first, from the stored tool results.
func (e *Engine) recentCommands(ctx context.Context, sid string, n int) []review.RecentCommand {
	page, err := e.Store.LoadMessages(ctx, sid, 0, 40)
	if err != nil {
		return nil
	}
	var out []review.RecentCommand
	for _, m := range page.Messages {
		for _, part := range m.Parts {
			if part.Kind != store.PartToolResult || part.ToolResult == nil || len(part.ToolResult.Meta) == 0 {
				continue
			}
			var r struct {
				Command  *string `json:"command"`
				ExitCode *int    `json:"exitCode"`
			}
			if json.Unmarshal(part.ToolResult.Meta, &r) == nil && r.Command != nil && r.ExitCode != nil {
				out = append(out, review.RecentCommand{Command: *r.Command, ExitCode: *r.ExitCode})
			}
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}
