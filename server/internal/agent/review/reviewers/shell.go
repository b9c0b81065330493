package reviewers

import (
	"context"
	"encoding/json"
	"os"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/shellcheck"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// recentForReview is how many past commands the security reviewer sees.
const recentForReview = 5

// ShellResult is what the shell editor and the security reviewer decided.
type ShellResult struct {
	// Command and Analysis are what is to run: the model's command or
	// the editor's accepted rewrite of it.
	Command  string
	Analysis shellcheck.Analysis
	Card     *Card
	// Refusal is set when the security reviewer rejected every version.
	Refusal string
}

// Shell alternates the shell editor and the security reviewer for up to
// the shell review's maxAttempts rounds: each rejection goes back to the
// editor, which may rewrite the command to address it. A rewrite is
// re-analysed and dropped when it is worse than what it replaces. Call it
// only when the shell review is enabled.
func (r *Reviewers) Shell(ctx context.Context, t Target, request string, p tools.ShellProposal, cmd string, an shellcheck.Analysis) (ShellResult, error) {
	rs := r.SettingsOf(review.KindShell)
	sid := t.SessionID
	ws := r.workspace(p.Cwd)
	in := review.ShellInput{Request: request, Todo: runningItem(ctx, r.store, sid), Cwd: p.Cwd, OS: r.opts.OS,
		Shell: r.opts.Shell, Recent: r.recentCommands(ctx, sid, recentForReview), Original: cmd}
	res := ShellResult{Command: cmd, Analysis: an}
	t.Title = "command " + oneLine(cmd)
	for round := 1; round <= rs.Attempts; round++ {
		in.Command = res.Command
		if run, model, err := r.runner(sid, rs); err == nil {
			rw := run.RewriteShell(ctx, in)
			et := t
			et.Title = "command editor " + oneLine(res.Command)
			r.record(et, model, rw.Transcript, &Card{Unavailable: rw.Unavailable})
			if ctx.Err() != nil {
				return ShellResult{}, ctx.Err()
			}
			if nc := rw.Rewrite.Command; rw.Unavailable == "" && nc != res.Command {
				if nan, ok := r.acceptRewrite(ws, res.Analysis, nc); ok {
					res.Command, res.Analysis = nc, nan
					r.host.Notice(t, r.host.Tr("The command editor rewrote the command as: %s (%s)", nc, firstNonEmpty(rw.Rewrite.Reason, r.host.Tr("no reason given"))))
				}
			}
		}
		in.Command, in.Class, in.Reasons = res.Command, res.Analysis.Class.String(), Reasons(res.Analysis)
		res.Card = r.Run(ctx, t, review.KindShell, in.SecurityPrompt())
		if err := ctx.Err(); err != nil {
			return ShellResult{}, err
		}
		if res.Card.Unavailable != "" || res.Card.Approved {
			return res, nil
		}
		in.Previous = res.Card.Problems
	}
	res.Refusal = "not run: the security review rejected the command (the user was not asked):\n" + res.Card.Feedback() +
		"\nRethink the step: make the command safer or narrower, or explain to the user why it is needed."
	return res, nil
}

// Reasons are the analysis' reasons as the user and the reviewer read
// them: a parse failure and a dedicated tool's advice included; never nil.
func Reasons(a shellcheck.Analysis) []string {
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
	return reasons
}

func (r *Reviewers) workspace(cwd string) shellcheck.Workspace {
	home, _ := os.UserHomeDir()
	return shellcheck.Workspace{Roots: r.opts.Roots, Cwd: cwd, Home: home}
}

// acceptRewrite re-analyses an editor's rewrite; it must parse, need no
// dedicated tool, be no more harmful than the command it replaces, and
// not be denied by a rule.
func (r *Reviewers) acceptRewrite(ws shellcheck.Workspace, before shellcheck.Analysis, command string) (shellcheck.Analysis, bool) {
	an := shellcheck.Analyze(command, ws)
	if an.ParseError != "" || an.UseTool != nil || an.Class > before.Class {
		return an, false
	}
	if r.host.Denied(ws, command, an) {
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

// recentCommands are the session's last shell commands with their exit
// codes, oldest first, from the stored tool results.
func (r *Reviewers) recentCommands(ctx context.Context, sid string, n int) []review.RecentCommand {
	page, err := r.store.LoadMessages(ctx, sid, 0, 40)
	if err != nil {
		return nil
	}
	var out []review.RecentCommand
	for _, m := range page.Messages {
		for _, part := range m.Parts {
			if part.Kind != store.PartToolResult || part.ToolResult == nil || len(part.ToolResult.Meta) == 0 {
				continue
			}
			var rc struct {
				Command  *string `json:"command"`
				ExitCode *int    `json:"exitCode"`
			}
			if json.Unmarshal(part.ToolResult.Meta, &rc) == nil && rc.Command != nil && rc.ExitCode != nil {
				out = append(out, review.RecentCommand{Command: *rc.Command, ExitCode: *rc.ExitCode})
			}
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// runningItem is the todo item the session's plan is carrying out, as
// "2/5 \"title\"" ("" when no plan runs): read from the plan itself, so
// the reviewer sees the item an executor is on.
func runningItem(ctx context.Context, st sessionstate.KV, sid string) string {
	p, ok, err := sessionstate.Get(ctx, st, sid, scheduler.TodoPlanKey)
	if err != nil || !ok || p.Phase != scheduler.PhaseScheduling || p.CurrentItem() == nil {
		return ""
	}
	return p.Describe(p.Current)
}
