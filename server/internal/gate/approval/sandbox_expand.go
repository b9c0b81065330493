package approval

import (
	"context"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// expandSandbox answers a command that ran in the sandbox and was denied
// a write or the network: a person may grant what was denied, for this
// command, on a card that says what was denied. Nothing and nobody else
// can: a headless run, a rule or a flag never widens a sandbox after the
// fact, and the dangerous class never gets here unasked.
func (a *Approver) expandSandbox(ctx context.Context, p tools.ShellProposal, an shellcheck.Analysis) (tools.ShellDecision, error) {
	e := a.x
	d := p.Denial
	if e.opts.Headless {
		return tools.ShellDecision{Reason: "the sandbox denied it and a headless run does not widen the sandbox"}, nil
	}
	g := p.Granted
	var asks []string
	if d.Write && !g.Write {
		g.Write, g.GitWrite = true, runsGit(an)
		if len(d.Paths) > 0 {
			asks = append(asks, e.host.Tr("Run again with write access (denied: writing %s)", strings.Join(d.Paths, ", ")))
		} else {
			asks = append(asks, e.host.Tr("Run again with write access"))
		}
	}
	if d.Network && !g.Network {
		g.Network = true
		if len(d.Domains) > 0 {
			asks = append(asks, e.host.Tr("Allow network to %s", strings.Join(d.Domains, ", ")))
		} else {
			asks = append(asks, e.host.Tr("Allow network (to the allowed domains)"))
		}
	} else if len(d.Domains) > 0 {
		// Network was granted and these domains are outside the allowlist:
		// a person may add them for this session.
		asks = append(asks, e.host.Tr("Allow network to %s for this session", strings.Join(d.Domains, ", ")))
	}
	if len(asks) == 0 && len(d.Removed) == 0 {
		return tools.ShellDecision{Reason: "nothing the sandbox denied can be granted"}, nil
	}
	analysis := ShellAnalysis{Class: "sandbox-denied", Reasons: asks}
	// OptionOutside is the card's third choice: this one command with no
	// sandbox at all. It is offered on this card only, so it is asked
	// every time, and the card says what it gives up.
	c := Confirm{SessionID: a.t.SessionID, TurnID: a.t.ID, ToolCallID: p.ToolCallID, Kind: "shell",
		Command: p.Command, Cwd: p.Cwd, Analysis: &analysis, Options: []string{OptionOutside}}
	ans, err := e.host.Ask(ctx, c)
	if err != nil {
		return tools.ShellDecision{}, err
	}
	if !ans.Accept {
		return tools.ShellDecision{Reason: strings.TrimSpace(ans.Reason), ByUser: true}, nil
	}
	if ans.Answer == OptionOutside {
		return tools.ShellDecision{Allowed: true, Command: p.Command, Grant: tools.SandboxGrant{Outside: true}}, nil
	}
	if len(d.Domains) > 0 {
		e.approveDomains(a.t.SessionID, d.Domains)
	}
	return tools.ShellDecision{Allowed: true, Command: p.Command, Grant: g}, nil
}

// OptionOutside answers a sandbox card with "run it outside the sandbox".
const OptionOutside = "outside"

// runsGit reports whether any command of the line is git: only such a
// command, approved for writing, may change .git.
func runsGit(an shellcheck.Analysis) bool {
	for _, c := range an.Commands {
		if c.Name == "git" || strings.HasSuffix(c.Name, "/git") {
			return true
		}
	}
	return false
}
