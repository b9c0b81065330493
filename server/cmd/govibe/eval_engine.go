package main

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/evalsuite"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/gate/allowrules"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/host/logging"
	"github.com/govibe/govibe/server/internal/workspace/shell"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// evalNoAnswer is ask_human's reply in an unattended eval run.
const evalNoAnswer = "Nobody can answer in this unattended run. Do not proceed: stop here and change nothing."

// newEvalEngine is exec's headless engine for one task's workspace, with
// --approve all, an allow-rule file of its own (the user's rules neither
// help nor hinder a run) and an asker that tells the agent to stop.
func newEvalEngine(ws, state string, log *logging.Logger, resolved config.Resolved, keys map[string]string) (*engine.Engine, error) {
	var eng *engine.Engine
	eng, err := engine.New(engine.Options{
		Roots: []string{ws}, StateDir: state, Logger: log.Logger,
		Settings: resolved.Values, APIKeys: keys, Headless: true, Approve: "all", Trusted: false,
		AllowRules: allowrules.Open(filepath.Join(state, "allow-rules.json")),
		OnNotice:   func(string, string, string) {},
		AskTerminal: func(context.Context, tools.HumanQuestion) (tools.HumanReply, error) {
			return tools.HumanReply{Reply: evalNoAnswer, Done: true}, nil
		},
		SettingOrigin: func(key string) string { return settingOrigin(resolved.Sources[key], eng.Tr) },
		HostInfo:      engine.HostInfo{OS: runtime.GOOS, Shell: shell.Default()},
	})
	return eng, err
}

// planAgent reports whether tag is the main agent or one of its plan's
// agents (executor:N, evaluator:N), whose work is the run's; sub-agents
// (investigate, custom agents) publish under the session with tags of
// their own and are left out.
func planAgent(tag string) bool {
	if tag == "" || tag == engine.TagFree {
		return true
	}
	role, _, ok := strings.Cut(tag, ":")
	return ok && (role == string(scheduler.RoleExecutor) || role == string(scheduler.RoleEvaluator))
}

// transcriptRecorder turns the main agent's events, and its plan's, into
// a transcript.
type transcriptRecorder struct {
	mu       sync.Mutex
	tr       evalsuite.Transcript
	text     strings.Builder
	newSeg   bool // a request ended: the next text starts a new answer
	newRound bool // a request ended: the next tool call starts a round
	byID     map[string]int
	errMsg   string
}

func (r *transcriptRecorder) event(ev engine.Event) {
	if !planAgent(ev.SubAgentTag) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev.Kind {
	case kinds.TextDelta:
		if r.newSeg {
			r.text.Reset()
			r.newSeg = false
		}
		r.text.WriteString(ev.Text)
	case kinds.Usage:
		if ev.Usage != nil {
			r.newSeg, r.newRound = true, true
		}
	case kinds.ToolCall:
		if r.newRound || r.tr.Rounds == 0 {
			r.tr.Rounds++
			r.newRound = false
		}
		r.byID[ev.Tool.CallID] = len(r.tr.Calls)
		r.tr.Calls = append(r.tr.Calls, evalsuite.ToolCall{Name: ev.Tool.Name, Arguments: ev.Tool.Arguments, Round: r.tr.Rounds, Agent: ev.SubAgentTag})
	case kinds.ToolResult:
		if i, ok := r.byID[ev.Tool.CallID]; ok {
			c := &r.tr.Calls[i]
			c.OK, c.Output = ev.Tool.OK, ev.Tool.Output
			// A refusal is worded for the person as well (Display).
			c.Refused = !ev.Tool.OK && ev.Tool.Display != ""
		}
	case kinds.Error:
		if ev.Err != nil {
			r.errMsg = ev.Err.Message
		}
	}
}

// drive sends the run's prompt in a new session, in the run's mode, and
// waits for the turn to finish. A plan that Plan mode proposed is then
// approved as the editor's "Run plan" would, and its run waited for too.
func (r *transcriptRecorder) drive(ctx context.Context, eng *engine.Engine, run evalsuite.Run) (evalsuite.Transcript, error) {
	r.byID = map[string]int{}
	s, err := eng.Sessions.Create(ctx, "")
	if err != nil {
		return r.tr, err
	}
	if run.Mode != "" {
		if err := eng.Modes.Set(ctx, s.ID, run.Mode); err != nil {
			return r.tr, err
		}
	}
	finished := make(chan agent.Status, 1)
	unsub := eng.Bus.Subscribe(func(ev engine.Event) {
		if ev.SessionID != s.ID {
			return
		}
		r.event(ev)
		if ev.Kind == kinds.TurnFinished {
			select {
			case finished <- agent.Status(ev.Status):
			default:
			}
		}
	})
	defer unsub()
	wait := func() agent.Status {
		select {
		case st := <-finished:
			return st
		case <-ctx.Done():
			eng.Cancel(s.ID)
			return <-finished
		}
	}
	if _, _, err := eng.Send(ctx, engine.SendParams{SessionID: s.ID, Text: run.Prompt}); err != nil {
		return r.tr, err
	}
	st := wait()
	if p := eng.Plans.Todo(ctx, s.ID); st == agent.StatusDone && run.Mode == string(modes.Plan) && p != nil && p.Unfinished() {
		if _, _, err := eng.RunPlan(ctx, s.ID, nil); err != nil {
			return r.tr, fmt.Errorf("approving the proposed plan: %w", err)
		}
		st = wait()
	}
	u := eng.Meter.Of(context.Background(), s.ID).Usage
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tr.Status = string(st)
	r.tr.Answer = strings.TrimSpace(r.text.String())
	r.tr.Usage = evalsuite.Usage{PromptTokens: u.PromptTokens, CachedTokens: u.CachedTokens, CompletionTokens: u.CompletionTokens, Cost: u.Cost}
	if st != agent.StatusDone && r.errMsg != "" {
		return r.tr, fmt.Errorf("%s: %s", st, r.errMsg)
	}
	return r.tr, nil
}
