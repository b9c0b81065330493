package scheduler

import (
	"errors"
	"fmt"
	"strings"
)

// Limits bound every agent and item.
type Limits struct {
	// MaxRetries is how many times an evaluator may send an item back.
	MaxRetries int
	// MaxAgentTurns caps each agent's tool rounds.
	MaxAgentTurns int
	// MaxAgentMinutes caps each agent's wall time.
	MaxAgentMinutes float64
}

// Normalized fills unset limits with the documented defaults.
func (l Limits) Normalized() Limits {
	if l.MaxRetries < 0 {
		l.MaxRetries = 2
	}
	if l.MaxAgentTurns <= 0 {
		l.MaxAgentTurns = 30
	}
	if l.MaxAgentMinutes <= 0 {
		l.MaxAgentMinutes = 15
	}
	return l
}

// MaxAttempts is the first attempt plus the retries.
func (l Limits) MaxAttempts() int { return 1 + l.MaxRetries }

// StepKind says what the scheduler runs next.
type StepKind int

const (
	// StepNone: nothing to run (no plan, or scheduling is over).
	StepNone StepKind = iota
	// StepAgent: an executor or evaluator on Index.
	StepAgent
	// StepFinal: the closing free phase.
	StepFinal
)

// Step is the scheduler's decision.
type Step struct {
	Kind  StepKind
	Role  Role
	Index int
	// Resume says the agent already began (AgentStart is valid) and
	// continues its own messages.
	Resume bool
}

// Tag is the step's subAgentTag.
func (s Step) Tag() string {
	if s.Kind != StepAgent {
		return string(RoleFree)
	}
	return Tag(s.Role, s.Index)
}

// Advance decides the next step, moving Current to the next pending item
// when the current one is finished. Code, not the model, decides this.
func (p *Plan) Advance() Step {
	if p == nil || p.Phase != PhaseScheduling {
		return Step{}
	}
	if it := p.CurrentItem(); it != nil && !it.Status.finished() {
		if p.Stage == "" {
			p.Stage = RoleExecutor
		}
		resume := (it.Status == Running || it.Status == Interrupted) && p.AgentStart >= 0
		return Step{Kind: StepAgent, Role: p.Stage, Index: p.Current, Resume: resume}
	}
	for i, it := range p.Items {
		if it.Status == Pending || it.Status == Interrupted {
			p.Current, p.Stage, p.AgentStart, p.AgentPrompt = i, RoleExecutor, -1, ""
			return Step{Kind: StepAgent, Role: RoleExecutor, Index: i}
		}
	}
	p.Current, p.Stage, p.AgentStart, p.AgentPrompt = -1, "", -1, ""
	if p.FinalPending {
		return Step{Kind: StepFinal}
	}
	p.Phase = PhaseFree
	return Step{}
}

// BeginAgent records that the step's agent starts (or resumes) with its
// first message at track position start.
func (p *Plan) BeginAgent(s Step, start int, prompt string) {
	it := &p.Items[s.Index]
	if !s.Resume && s.Role == RoleExecutor {
		it.Attempts++
	}
	if !s.Resume {
		it.Turns = 0
		p.Changes, p.Replaced = nil, false
	}
	it.Status, it.Agent = Running, s.Tag()
	p.Current, p.Stage, p.AgentStart, p.AgentPrompt = s.Index, s.Role, start, prompt
}

// CountTurn adds one model turn to the running agent.
func (p *Plan) CountTurn() {
	if it := p.CurrentItem(); it != nil {
		it.Turns++
	}
}

// Interrupt marks the running agent's item interrupted (Stop, crash):
// the plan keeps the agent and its start so a resume continues it.
func (p *Plan) Interrupt() {
	if it := p.CurrentItem(); it != nil && it.Status == Running {
		it.Status = Interrupted
	}
}

// ExecutorFinished hands the item to its evaluator.
func (p *Plan) ExecutorFinished() {
	if it := p.CurrentItem(); it != nil && !it.Status.finished() {
		it.Status = Running
		p.Stage = RoleEvaluator
	}
	p.AgentStart, p.AgentPrompt = -1, ""
}

// Verdict is what an evaluator decided, for its summary.
type Verdict struct {
	Outcome  string // done|retry|failed|replanned
	Findings string
	Changes  []string
}

// EvaluatorFinished applies an evaluator's end: an item it completed is
// done; an item it expanded gives way to its parts; anything else is "not
// done", sent back with the evaluator's final reply as findings while
// attempts remain, else failed.
func (p *Plan) EvaluatorFinished(final string, lim Limits) Verdict {
	lim = lim.Normalized()
	v := Verdict{Findings: strings.TrimSpace(final), Changes: append([]string(nil), p.Changes...)}
	p.AgentStart, p.AgentPrompt = -1, ""
	defer func() { p.Changes, p.Replaced = nil, false }()
	if p.Replaced {
		v.Outcome = "replanned"
		p.Current, p.Stage = -1, ""
		return v
	}
	it := p.CurrentItem()
	if it == nil {
		v.Outcome = "replanned"
		return v
	}
	if it.Status == Done {
		v.Outcome = "done"
		if it.Summary != "" {
			v.Findings = it.Summary
		}
		p.Current, p.Stage = -1, ""
		return v
	}
	if v.Findings == "" {
		v.Findings = "The evaluator ended without deciding; the item is not done."
	}
	if it.Attempts < lim.MaxAttempts() {
		v.Outcome = "retry"
		it.Status, it.Findings = Pending, v.Findings
		p.Stage = RoleExecutor
		return v
	}
	v.Outcome = "failed"
	it.Status, it.Summary = Failed, fmt.Sprintf("failed after %d attempts: %s", it.Attempts, v.Findings)
	p.Current, p.Stage = -1, ""
	return v
}

// Complete applies complete_todo_item. Only an evaluator may complete,
// and only the item in progress: no model can complete another item or
// skip one.
func (p *Plan) Complete(role Role, a CompleteArgs) (string, error) {
	if p == nil || p.Phase != PhaseScheduling {
		return "", errors.New("there is no todo list in progress")
	}
	if role != RoleEvaluator {
		return "", errors.New("only the evaluator completes items")
	}
	cur := p.CurrentItem()
	if p.Replaced || cur == nil {
		return "", errors.New("the item in progress was expanded into new items; they run next, nothing can be completed now")
	}
	i, err := p.find(a.Index, a.Title)
	if err != nil {
		return "", err
	}
	if i != p.Current {
		return "", fmt.Errorf("item %s is not the item in progress; only item %s can be completed now", p.Describe(i), p.Describe(p.Current))
	}
	cur.Status = Done
	cur.Summary = strings.TrimSpace(a.Summary)
	cur.Findings = ""
	return fmt.Sprintf("Item %s is done.", p.Describe(i)), nil
}

// Create applies create_todo_list for role. In the free phase it starts a
// new plan (or expands an unfinished item of the current one); an
// evaluator may expand the current or a later item, or replace the items
// after the current one (insert, drop, reorder). Finished items and the
// item in progress are never changed by a plan change.
func (p *Plan) Create(role Role, a CreateArgs) (*Plan, string, error) {
	switch role {
	case RoleFree:
		if a.ExpandIndex > 0 {
			if p == nil || p.Phase != PhaseScheduling {
				return nil, "", errors.New("expandIndex needs an existing todo list in progress")
			}
			q := p.Clone()
			msg, err := q.expand(a, false)
			return q, msg, err
		}
		q := New(a.Goal, a.Items)
		return q, fmt.Sprintf("Todo list created with %d items. The scheduler now runs each item with an executor and an evaluator.", len(q.Items)), nil
	case RoleEvaluator:
		if p == nil || p.Phase != PhaseScheduling {
			return nil, "", errors.New("there is no todo list in progress")
		}
		q := p.Clone()
		if a.ExpandIndex > 0 {
			msg, err := q.expand(a, true)
			return q, msg, err
		}
		msg, err := q.replaceTail(a)
		return q, msg, err
	default:
		return nil, "", fmt.Errorf("the %s may not change the plan", role)
	}
}

func (p *Plan) expand(a CreateArgs, evaluator bool) (string, error) {
	k := a.ExpandIndex - 1
	if k >= len(p.Items) {
		return "", fmt.Errorf("expandIndex %d is out of range: the plan has %d items", a.ExpandIndex, len(p.Items))
	}
	if p.Items[k].Status.finished() {
		return "", fmt.Errorf("item %s is already %s and cannot be expanded", p.Describe(k), p.Items[k].Status)
	}
	if k < p.Current {
		return "", fmt.Errorf("item %s is before the item in progress", p.Describe(k))
	}
	if !evaluator && k == p.Current && p.Items[k].Status == Running {
		return "", errors.New("the item in progress cannot be expanded from here")
	}
	if len(p.Items)-1+len(a.Items) > MaxItems {
		return "", fmt.Errorf("the plan would hold more than %d items", MaxItems)
	}
	old := p.Items[k]
	parts := make([]Item, 0, len(a.Items))
	for _, it := range a.Items {
		it.Status = Pending
		parts = append(parts, it)
	}
	p.Items = append(p.Items[:k], append(parts, p.Items[k+1:]...)...)
	if k == p.Current {
		p.Replaced = true
		if !evaluator {
			p.Current, p.Stage, p.AgentStart, p.AgentPrompt = -1, "", -1, ""
		}
	}
	change := fmt.Sprintf("expanded item %d %q into %d items", k+1, old.Title, len(parts))
	p.Changes = append(p.Changes, change)
	return "Plan changed: " + change + ".", nil
}

// replaceTail swaps the items after the current one for a.Items. Models
// often resend the whole list: a leading run of titles equal to the items
// up to the current one is recognised and kept as is.
func (p *Plan) replaceTail(a CreateArgs) (string, error) {
	keep := p.Current + 1
	if p.Current < 0 {
		keep = 0
	}
	newItems := a.Items
	for i := 0; i < keep && len(newItems) > 0 && strings.EqualFold(newItems[0].Title, p.Items[i].Title); i++ {
		newItems = newItems[1:]
	}
	// Finished items after the current one (skipped by the user) stay.
	var fixed []Item
	oldTail := map[string]bool{}
	for _, it := range p.Items[keep:] {
		if it.Status.finished() {
			fixed = append(fixed, it)
		} else {
			oldTail[strings.ToLower(it.Title)] = true
		}
	}
	if keep+len(fixed)+len(newItems) > MaxItems {
		return "", fmt.Errorf("the plan would hold more than %d items", MaxItems)
	}
	var inserted, dropped []string
	newTitles := map[string]bool{}
	tail := append([]Item(nil), fixed...)
	for _, it := range newItems {
		newTitles[strings.ToLower(it.Title)] = true
		if !oldTail[strings.ToLower(it.Title)] {
			inserted = append(inserted, it.Title)
		}
		it.Status = Pending
		tail = append(tail, it)
	}
	for _, it := range p.Items[keep:] {
		if !it.Status.finished() && !newTitles[strings.ToLower(it.Title)] {
			dropped = append(dropped, it.Title)
		}
	}
	p.Items = append(p.Items[:keep:keep], tail...)
	if a.Goal != "" {
		p.Goal = a.Goal
	}
	var parts []string
	if len(inserted) > 0 {
		parts = append(parts, "inserted "+quoteAll(inserted))
	}
	if len(dropped) > 0 {
		parts = append(parts, "dropped "+quoteAll(dropped))
	}
	if len(parts) == 0 {
		parts = append(parts, "reordered or reworded the remaining items")
	}
	change := strings.Join(parts, "; ")
	p.Changes = append(p.Changes, change)
	return "Plan changed: " + change + ".", nil
}

func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// Skip is the user's Skip item: an unfinished item is skipped. Scheduling
// continues with the next item.
func (p *Plan) Skip(i int) error {
	if i < 0 || i >= len(p.Items) {
		return fmt.Errorf("item %d does not exist", i+1)
	}
	if p.Items[i].Status.finished() {
		return fmt.Errorf("item %s is already %s", p.Describe(i), p.Items[i].Status)
	}
	p.Items[i].Status = Skipped
	p.Items[i].Summary = "skipped by the user"
	if i == p.Current {
		p.Current, p.Stage, p.AgentStart, p.AgentPrompt = -1, "", -1, ""
	}
	p.Phase, p.FinalPending = PhaseScheduling, true
	return nil
}

// Retry is the user's Retry item: a failed, skipped or interrupted item
// gets a fresh set of attempts and runs from its executor.
func (p *Plan) Retry(i int) error {
	if i < 0 || i >= len(p.Items) {
		return fmt.Errorf("item %d does not exist", i+1)
	}
	it := &p.Items[i]
	switch it.Status {
	case Failed, Skipped, Interrupted:
	default:
		return fmt.Errorf("item %s is %s; only failed, skipped or interrupted items can be retried", p.Describe(i), it.Status)
	}
	it.Status, it.Attempts, it.Turns, it.Summary, it.Findings = Pending, 0, 0, "", ""
	if i == p.Current {
		p.Current, p.Stage, p.AgentStart, p.AgentPrompt = -1, "", -1, ""
	} else if c := p.CurrentItem(); c != nil && !c.Status.finished() {
		// Another unfinished item keeps its place; the retried one runs when
		// the scheduler reaches it.
		return nil
	}
	p.Phase, p.FinalPending = PhaseScheduling, true
	return nil
}

// FinalDone closes scheduling.
func (p *Plan) FinalDone() {
	p.FinalPending = false
	p.Phase = PhaseFree
	p.Current, p.Stage, p.AgentStart, p.AgentPrompt = -1, "", -1, ""
}
