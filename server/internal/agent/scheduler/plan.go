// Package scheduler is the todo plan and the three-phase scheduler's state
// machine: which agent runs next, what each role may call, and the
// mechanical summaries that replace an agent's messages once it finishes.
// It holds no I/O: the engine persists the Plan and runs the agents.
package scheduler

import (
	"fmt"
	"strings"
)

// Status is an item's progress.
type Status string

const (
	Pending     Status = "pending"
	Running     Status = "running"
	Done        Status = "done"
	Failed      Status = "failed"
	Skipped     Status = "skipped"
	Interrupted Status = "interrupted"
)

// finished items are never touched by the scheduler or a model again.
func (s Status) finished() bool { return s == Done || s == Failed || s == Skipped }

// Role is what kind of agent runs.
type Role string

const (
	RoleFree      Role = "free"
	RoleExecutor  Role = "executor"
	RoleEvaluator Role = "evaluator"
)

// Phase is the session's scheduling mode.
type Phase string

const (
	PhaseFree       Phase = "free"
	PhaseScheduling Phase = "scheduling"
)

// Tag is the subAgentTag of an agent working on item index (0-based).
func Tag(r Role, index int) string {
	if r == RoleFree || r == "" {
		return string(RoleFree)
	}
	return fmt.Sprintf("%s:%d", r, index+1)
}

// Item is one step of the plan.
type Item struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Acceptance  string `json:"acceptance,omitempty"`
	Status      Status `json:"status"`
	// Agent is the tag of the agent working on the item (or the last one).
	Agent    string `json:"agent,omitempty"`
	Turns    int    `json:"turns,omitempty"`
	Attempts int    `json:"attempts,omitempty"`
	// Summary is the evaluator's verdict, or why the item failed.
	Summary string `json:"summary,omitempty"`
	// Findings are what the last evaluator sent back to the executor.
	Findings string `json:"findings,omitempty"`
}

// Plan is a session's todo list and where the scheduler stands in it. It
// is a plain value: callers serialise access (the engine holds a lock per
// session while it reads, changes and persists it).
type Plan struct {
	Goal  string `json:"goal"`
	Items []Item `json:"items"`
	// Current is the item in progress (0-based), -1 when none.
	Current int   `json:"current"`
	Phase   Phase `json:"phase"`
	// Stage is the role that runs (or must run next) on Current.
	Stage Role `json:"stage,omitempty"`
	// AgentStart is the model-track position of the running agent's first
	// message (-1 when no agent has begun), and AgentPrompt that message:
	// together they let a resumed agent continue its own messages, and the
	// scoped compaction replace exactly them.
	AgentStart  int    `json:"agentStart"`
	AgentPrompt string `json:"agentPrompt,omitempty"`
	// FinalPending says the closing free phase has not run yet.
	FinalPending bool `json:"finalPending,omitempty"`
	// Changes lists plan changes made by the running evaluator (for its
	// verdict summary); reset when an agent begins.
	Changes []string `json:"changes,omitempty"`
	// Replaced is set when the running evaluator expanded the current item.
	Replaced bool `json:"replaced,omitempty"`
	// Model and AllowedTools are the limits of the custom command whose
	// turn created the plan (its frontmatter's model and allowedTools):
	// a resumed plan (after Stop or a restart) runs under them too.
	Model        string   `json:"model,omitempty"`
	AllowedTools []string `json:"allowedTools,omitempty"`
}

// New makes a plan in scheduling mode.
func New(goal string, items []Item) *Plan {
	p := &Plan{Goal: goal, Current: -1, Phase: PhaseScheduling, AgentStart: -1, FinalPending: true}
	for _, it := range items {
		it.Status = Pending
		p.Items = append(p.Items, it)
	}
	return p
}

// Clone returns a deep copy.
func (p *Plan) Clone() *Plan {
	if p == nil {
		return nil
	}
	c := *p
	c.Items = append([]Item(nil), p.Items...)
	c.Changes = append([]string(nil), p.Changes...)
	c.AllowedTools = append([]string(nil), p.AllowedTools...)
	return &c
}

// Remaining counts items not yet done, failed or skipped.
func (p *Plan) Remaining() int {
	if p == nil {
		return 0
	}
	n := 0
	for _, it := range p.Items {
		if !it.Status.finished() {
			n++
		}
	}
	return n
}

// CurrentItem returns the item in progress, or nil.
func (p *Plan) CurrentItem() *Item {
	if p == nil || p.Current < 0 || p.Current >= len(p.Items) {
		return nil
	}
	return &p.Items[p.Current]
}

// Unfinished reports whether scheduling still has work to do (items or
// the closing free phase).
func (p *Plan) Unfinished() bool {
	return p != nil && p.Phase == PhaseScheduling && (p.Remaining() > 0 || p.FinalPending)
}

// Interrupted reports whether an agent was cut off (Stop, crash) and the
// user may resume.
func (p *Plan) Interrupted() bool {
	it := p.CurrentItem()
	return it != nil && p.Phase == PhaseScheduling && (it.Status == Interrupted || it.Status == Running)
}

// Describe names an item for prompts and summaries: `2/5 "Title"`.
func (p *Plan) Describe(i int) string {
	if i < 0 || i >= len(p.Items) {
		return fmt.Sprintf("%d/%d", i+1, len(p.Items))
	}
	return fmt.Sprintf("%d/%d %q", i+1, len(p.Items), p.Items[i].Title)
}

// find resolves a 1-based index or a title (case-insensitive, trimmed).
func (p *Plan) find(index int, title string) (int, error) {
	if index != 0 {
		if index < 1 || index > len(p.Items) {
			return -1, fmt.Errorf("index %d is out of range: the plan has %d items (indexes are 1-based)", index, len(p.Items))
		}
		i := index - 1
		if t := strings.TrimSpace(title); t != "" && !strings.EqualFold(t, strings.TrimSpace(p.Items[i].Title)) {
			return -1, fmt.Errorf("index %d is %q, not %q", index, p.Items[i].Title, t)
		}
		return i, nil
	}
	t := strings.TrimSpace(title)
	if t == "" {
		return -1, fmt.Errorf("give the item's index (1-based) or its title")
	}
	for i, it := range p.Items {
		if strings.EqualFold(strings.TrimSpace(it.Title), t) {
			return i, nil
		}
	}
	return -1, fmt.Errorf("no item is titled %q", t)
}
