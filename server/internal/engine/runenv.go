package engine

import (
	"context"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/rollback"
	"github.com/govibe/govibe/server/internal/workspace/shell"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// What every run of a turn is built from: its tools' environment, the
// system prompt, the active profile and its model client.

// toolEnv builds the tools' view of this turn.
func (e *Engine) toolEnv(ctx context.Context, t *turn) *tools.Env {
	v := e.Settings()
	cs := config.Typed(v)
	var once sync.Once
	// One snapshot before the first mutation of the turn, whoever makes it:
	// a tool writing itself, or the editor applying an accepted edit.
	beforeMutation := func(ctx context.Context) {
		if t.btw {
			return
		}
		once.Do(func() {
			t.mutated.Store(true)
			e.Rollback.RecordBeforeTurn(ctx, rollback.Turn{SessionID: t.sessionID, ID: t.id, Number: t.number, Text: t.text})
		})
	}
	env := &tools.Env{
		Roots:    e.opts.Roots,
		Files:    e.tracker(t.sessionID),
		Approver: &turnApprover{approvals: e.TurnTools.Approver(t.tools(), beforeMutation), e: e, t: t},
		Settings: tools.Settings{
			EditEnabled:     e.EditEnabled(ctx, t.sessionID),
			ConfirmChanges:  true, // the approver applies auto-approve and headless policy
			ConfirmShell:    true,
			ShellTimeoutMs:  cs.Shell.TimeoutMs,
			ShellMaxTimeout: cs.Shell.MaxTimeoutMs,
			RipgrepPath:     e.opts.HostInfo.RipgrepPath,
			EnvPassthrough:  cs.Shell.Env.Passthrough,
		},
		Sandbox: e.TurnTools.Sandbox(cs, t.sessionID),
		OnEnvScrub: func(names []string) {
			e.log.Debug("shell environment scrubbed", zap.Strings("names", names))
		},
		BeforeMutation: beforeMutation,
		Readable:       e.Approvals.Readable,
		Translator:     e.Tr,
		SessionID:      t.sessionID,
		TurnID:         t.id,
		Web:            e.TurnTools.Web(),
		Skills:         e.Skills,
	}
	if e.opts.Host != nil {
		env.Host = e.opts.Host
	}
	return env
}

// systemPromptOf is the system prompt of a run in sit of session sid:
// its contract and tool guidance follow the offered tools, its
// environment the session's facts, and the skills section follows when
// load_skill is offered. All of it changes only with the situation's
// role, mode and phase, the offered tools, settings, trust or a skills
// reload, so the request prefix stays byte-identical from turn to turn
// (loading or activating a skill changes the context block and the
// track, never this).
func (e *Engine) systemPromptOf(sid string, sit toolpolicy.Situation, offered []tools.Tool) string {
	f := e.Sessions.Facts(sid)
	p := agent.SystemPromptFor(agent.HostInfo{
		OS: e.opts.HostInfo.OS, PathSeparator: shell.PathSeparator(), LineEnding: shell.LineEnding(), Shell: e.opts.HostInfo.Shell,
		Roots: e.opts.Roots, Date: f.Date, Git: f.Git,
	}, e.cfg().Language, sit, offered)
	if sec := e.Skills.Catalog().PromptSection(); sec != "" && offers(offered, tools.LoadSkillName) {
		p = strings.TrimRight(p, "\n") + "\n\n" + sec
	}
	return p
}

// offers says whether a tool called name is among ts.
func offers(ts []tools.Tool, name string) bool {
	for _, t := range ts {
		if t.Name() == name {
			return true
		}
	}
	return false
}

func (e *Engine) client(p Profile) (llm.Client, error) {
	v := e.Settings()
	c, err := e.opts.NewClient(p.Profile, llm.Options{Logger: e.log.Named("llm"), Proxy: config.Typed(v).Proxy})
	if c == nil {
		return nil, err
	}
	return e.budget.Client(e.Meter.Client(c, p.Profile)), err
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}
