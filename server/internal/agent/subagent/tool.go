package subagent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/gate/watchdog"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// agentTool is investigate or agent_<name>: it runs a bounded agent in a
// hidden child session and returns only its result. Immutable, so safe
// for concurrent use; each call builds its own run.
type agentTool struct {
	h   Host
	def Def
	// investigate requires a complete_task report.
	investigate bool
}

// Tools are investigate and a tool per custom agent definition.
func Tools(h Host, defs []Def) []tools.Tool {
	out := []tools.Tool{&agentTool{h: h, investigate: true, def: Def{Name: InvestigateName, Prompt: InvestigatePrompt}}}
	for _, d := range defs {
		out = append(out, &agentTool{h: h, def: d})
	}
	return out
}

func (s *agentTool) Name() string {
	if s.investigate {
		return InvestigateName
	}
	return s.def.ToolName()
}

func (s *agentTool) Description() string {
	if s.investigate {
		return InvestigateDesc
	}
	return fmt.Sprintf("Delegate to the %q sub-agent (%s). It runs with its own context and tools: %s. You receive only its final answer.",
		s.def.Name, s.def.Description, strings.Join(s.def.Tools, ", "))
}

func (s *agentTool) Schema() json.RawMessage { return ObjectiveSchema }

// ReadOnly is true only for investigate: custom agents may hold write tools.
func (s *agentTool) ReadOnly() bool { return s.investigate }

// Traits: it starts an agent, which does what the tools it is given do
// (how those are offered, Deferred, is theirs). investigate is deferred:
// a turn rarely needs a second agent to read for it; a custom agent is
// offered as its definition asks.
func (s *agentTool) Traits() tools.Traits {
	t := tools.StartsSubAgent
	ts, _ := s.offered()
	for _, x := range ts {
		t |= x.Traits() &^ tools.Deferred
	}
	if s.investigate {
		t |= tools.Deferred
	}
	return t
}

func (s *agentTool) Run(ctx context.Context, env *tools.Env, raw json.RawMessage) (tools.Result, error) {
	// The sub-agent's own tool calls are watched one by one; its loop is
	// not this call's CPU.
	defer watchdog.Pause(ctx)()
	objective, err := ParseObjective(raw)
	if err != nil {
		return tools.FailShown(s.Name()+": "+err.Error(), env.Tr("%s was called without an objective.", s.Name())), nil
	}
	parent := env.SessionID
	title := s.Name() + ": " + objective
	if len(title) > 80 {
		title = title[:80] + "…"
	}
	// Events are tagged "investigate" or "agent:<name>", the form
	// executor:N and evaluator:N also take.
	tag := InvestigateName
	if !s.investigate {
		tag = "agent:" + s.def.Name
	}
	child, err := s.h.Begin(ctx, env, title, tag, objective)
	if err != nil {
		return tools.Result{}, err
	}
	m, err := s.h.AgentModel(ctx, parent, s.def.Name, s.def.Model)
	if err != nil {
		return tools.Result{}, err
	}
	ts, complete := s.allowed(env.Host == nil)
	// The allow-list is enforced twice: only these tools are offered, and
	// the loop refuses any other name.
	childEnv := *env
	childEnv.SessionID = child.ID()
	run := &agent.Run{Client: m.Client, Tools: ts, Env: &childEnv, System: s.def.Prompt, Translate: s.h.Tr,
		ToolCalling: m.ToolCalling, OnTextFallback: m.OnTextFallback, SessionID: child.ID(), MaxTokens: m.MaxTokens,
		Notes: child.Notes}
	task := Task{Run: run, Objective: objective, Complete: complete, Sink: child.Sink(),
		MaxTurns: InvestigateMaxTurns, MaxTime: InvestigateMaxTime}
	// The objective is the child's first model message.
	if err := child.CommitUser(ctx, objective); err != nil {
		return tools.Result{}, err
	}
	out := Execute(ctx, task)
	s.h.Stopped(context.WithoutCancel(ctx), env.TurnID, parent, tag)
	child.Finish(ctx, out.Err, &out.Usage)
	meta := map[string]any{"childSession": child.ID(), "turns": out.Turns, "corrections": out.Corrections}
	if ctx.Err() != nil {
		return tools.Result{}, ctx.Err()
	}
	if s.investigate {
		if out.Report == nil {
			return tools.Result{OK: false, Output: fmt.Sprintf("investigate did not return a valid report: %v", out.Err),
				Display: env.Tr("The investigation did not return a valid report: %v", out.Err), Meta: meta}, nil
		}
		return tools.Result{OK: true, Output: out.Report.JSON(), Meta: meta}, nil
	}
	if out.Err != nil {
		return tools.Result{OK: false, Output: fmt.Sprintf("%s stopped: %v\nLast reply:\n%s", s.Name(), out.Err, out.Text),
			Display: env.Tr("%s stopped: %v", s.Name(), out.Err), Meta: meta}, nil
	}
	return tools.Result{OK: true, Output: out.Text, Meta: meta}, nil
}

// offered are the built-in tools the sub-agent's role is offered
// (toolpolicy): the investigator's read and search tools, or a custom
// agent's definition's list.
func (s *agentTool) offered() ([]tools.Tool, toolpolicy.Decision) {
	return s.offeredIn(false)
}

// offeredIn is offered for a run with or without an editor: a headless
// run drops what only the editor answers (get_diagnostics).
func (s *agentTool) offeredIn(headless bool) ([]tools.Tool, toolpolicy.Decision) {
	sit := toolpolicy.Situation{Role: toolpolicy.CustomAgent, AgentTools: s.def.Tools, AgentAllTools: s.def.AllTools, Headless: headless}
	if s.investigate {
		sit = toolpolicy.Situation{Role: toolpolicy.Investigator, Headless: headless}
	}
	ts := tools.Builtin()
	d := toolpolicy.Decide(sit, ts)
	return d.Offered(ts), d
}

// allowed builds the sub-agent's tools: exactly what its role is offered
// (plus complete_task for the investigator).
func (s *agentTool) allowed(headless bool) ([]tools.Tool, *CompleteTask) {
	ts, _ := s.offeredIn(headless)
	if !s.investigate {
		return ts, nil
	}
	c := &CompleteTask{}
	return append(ts, c), c
}
