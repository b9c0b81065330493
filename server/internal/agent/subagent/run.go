package subagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Investigator limits (Gemini CLI's codebase investigator's).
const (
	InvestigateName     = "investigate"
	InvestigateMaxTurns = 15
	InvestigateMaxTime  = 5 * time.Minute
	CompleteTaskName    = "complete_task"
	// MaxCorrections bounds corrective retries for a missing or invalid report.
	MaxCorrections = 2
)

// InvestigatePrompt is the investigator's system prompt.
const InvestigatePrompt = `You are a codebase investigator: a read-only sub-agent. Your only job is to build a deep, accurate understanding of the code relevant to the objective and report it to the agent that called you.
- Find the key modules, types and functions; understand why the code is written as it is; follow callers and data structures to foresee the ripple effects of a change.
- Do not write or change anything; you only have read-only tools.
- Do not stop at the first relevant file.
When you are done you MUST call complete_task with report: a JSON object
{"SummaryOfFindings": string, "ExplorationTrace": [string, ...], "RelevantLocations": [{"FilePath": string, "Reasoning": string, "KeySymbols": [string, ...]}]}.
Your final report is the only thing the calling agent sees.`

// InvestigateDesc is the investigate tool's description.
const InvestigateDesc = `Delegate a codebase investigation to a read-only sub-agent with its own context (at most 15 turns, 5 minutes). Use it for complex questions that need many files read ("how does X work", "where must Y change"). You receive only its structured report: SummaryOfFindings, ExplorationTrace and RelevantLocations.`

// ObjectiveSchema is the schema of investigate and custom agent tools.
var ObjectiveSchema = json.RawMessage(`{"type":"object","properties":{"objective":{"type":"string","description":"What the sub-agent must find out or do, with all the context it needs."}},"required":["objective"],"additionalProperties":false}`)

// ParseObjective decodes {objective}.
func ParseObjective(raw json.RawMessage) (string, error) {
	var a struct {
		Objective string `json:"objective"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return "", fmt.Errorf("invalid arguments: %v", err)
	}
	if strings.TrimSpace(a.Objective) == "" {
		return "", errors.New("objective is required")
	}
	return strings.TrimSpace(a.Objective), nil
}

// CompleteTask is the complete_task tool of one sub-agent run: it accepts
// only a valid report and keeps it. Safe for concurrent use.
type CompleteTask struct {
	mu     sync.Mutex
	report *Report
}

func (c *CompleteTask) Name() string { return CompleteTaskName }
func (c *CompleteTask) Description() string {
	return "Finish the investigation. report must be a JSON object {SummaryOfFindings, ExplorationTrace[], RelevantLocations[{FilePath, Reasoning, KeySymbols[]}]}."
}
func (c *CompleteTask) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"report":{"type":"object","properties":{"SummaryOfFindings":{"type":"string"},"ExplorationTrace":{"type":"array","items":{"type":"string"}},"RelevantLocations":{"type":"array","items":{"type":"object","properties":{"FilePath":{"type":"string"},"Reasoning":{"type":"string"},"KeySymbols":{"type":"array","items":{"type":"string"}}},"required":["FilePath","Reasoning","KeySymbols"]}}},"required":["SummaryOfFindings","ExplorationTrace","RelevantLocations"]}},"required":["report"],"additionalProperties":false}`)
}
func (c *CompleteTask) ReadOnly() bool { return false }

// Traits: it ends the sub-agent with its report.
func (c *CompleteTask) Traits() tools.Traits { return tools.Reports }

func (c *CompleteTask) Run(_ context.Context, env *tools.Env, raw json.RawMessage) (tools.Result, error) {
	var a struct {
		Report json.RawMessage `json:"report"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return tools.FailShown("complete_task: invalid arguments: "+err.Error(), env.Tr("%s was called with arguments that are not a JSON object.", "complete_task")), nil
	}
	r, err := ParseReport(a.Report)
	if err != nil {
		return tools.FailShown("complete_task: the report is invalid: "+err.Error()+". Call complete_task again with a corrected report.",
			env.Tr("The report is not valid; the agent is asked to correct it: %v", err)), nil
	}
	c.mu.Lock()
	c.report = &r
	c.mu.Unlock()
	return tools.Result{OK: true, Output: "Report accepted."}, nil
}

// Report returns the accepted report, or nil.
func (c *CompleteTask) Report() *Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.report
}

// Task is one sub-agent run.
type Task struct {
	// Run is the configured loop (client, tools, env, system prompt).
	// Execute sets MaxRounds and StopAfter.
	Run       *agent.Run
	Objective string
	// Complete, when set, is the run's complete_task: the agent must end by
	// calling it with a valid report.
	Complete *CompleteTask
	MaxTurns int
	MaxTime  time.Duration
	Sink     agent.Sink
}

// Outcome is how a sub-agent run ended.
type Outcome struct {
	Report      *Report
	Text        string // the final reply of an agent without a report
	Status      agent.Status
	Err         error
	Turns       int
	Corrections int
	Usage       llm.Usage
	Messages    []llm.Message
}

// Execute runs the task within its turn and time limits. An agent that
// must report and ends without a valid report is corrected (at most
// MaxCorrections times): the invalid report's error already reached it as
// the tool result; a reply without the call gets a reminder.
func Execute(ctx context.Context, task Task) Outcome {
	if task.MaxTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, task.MaxTime)
		defer cancel()
	}
	hist := []llm.Message{{Role: llm.RoleUser, Content: task.Objective}}
	var res Outcome
	r := task.Run
	if task.Complete != nil {
		r.StopAfter = map[string]bool{CompleteTaskName: true}
	}
	for {
		r.MaxRounds = task.MaxTurns - res.Turns - 1
		out := r.Execute(ctx, hist, task.Sink)
		hist = append(hist, out.Messages...)
		res.Messages = append(res.Messages, out.Messages...)
		res.Usage.Add(out.Usage)
		res.Turns += out.Requests
		res.Status, res.Err, res.Text = out.Status, out.Err, out.Final
		if out.Status == agent.StatusCancelled && ctx.Err() == context.DeadlineExceeded {
			res.Status, res.Err = agent.StatusMaxTurns, fmt.Errorf("the sub-agent ran out of time (%s)", task.MaxTime)
			return res
		}
		if out.Status != agent.StatusDone && out.Status != agent.StatusMaxTurns {
			return res
		}
		if task.Complete == nil {
			return res
		}
		if rep := task.Complete.Report(); rep != nil {
			res.Report, res.Status, res.Err = rep, agent.StatusDone, nil
			return res
		}
		if out.Status == agent.StatusMaxTurns || res.Turns >= task.MaxTurns {
			res.Status, res.Err = agent.StatusMaxTurns, fmt.Errorf("the sub-agent used its %d turns without a valid report", task.MaxTurns)
			return res
		}
		if res.Corrections >= MaxCorrections {
			res.Status, res.Err = agent.StatusError, fmt.Errorf("the sub-agent did not produce a valid report after %d corrections", res.Corrections)
			return res
		}
		res.Corrections++
		if out.Stopped == "" {
			m := llm.Message{Role: llm.RoleUser, Content: "You must finish by calling complete_task with your report as a JSON object {SummaryOfFindings, ExplorationTrace[], RelevantLocations[{FilePath, Reasoning, KeySymbols[]}]}. Call it now."}
			hist = append(hist, m)
			res.Messages = append(res.Messages, m)
			task.Sink.Append(m)
		}
		task.Sink.Notice(r.Tr("The sub-agent's report was missing or invalid; asking it to correct it."))
	}
}
