package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/govibe/govibe/server/internal/commands"
	"github.com/govibe/govibe/server/internal/initscan"
	"github.com/govibe/govibe/server/internal/sessionstate"
	"github.com/govibe/govibe/server/internal/store"
)

// The built-in chat commands beyond /compact and /btw. Commands that
// answer by themselves (help, lists, undo) add a notice to the session's
// UI track only (the model never sees them) and close with turnFinished;
// /init and /spec become the turn's prompt.

func (e *Engine) builtinCommands() []commands.Command[slashHandler] {
	return []commands.Command[slashHandler]{
		{Name: "help", Description: "List the chat's commands", Handler: e.helpCommand},
		{Name: "new", Description: "Start a new session (this one stays in the history)", Handler: e.newCommand},
		{Name: "clear", Description: "Clear the model's context in this session: it forgets the earlier messages, which stay here to read", Handler: e.clearCommand},
		{Name: "init", Description: "Explore the project and write AGENTS.md and the project memory (every write is shown as a diff)", Handler: e.initCommand},
		{Name: "model", ArgumentHint: "[profile]", Description: "Show or switch the model profile of this session", Handler: e.modelCommand},
		{Name: "sessions", Description: "List recent sessions", Handler: e.sessionsCommand},
		{Name: "skills", ArgumentHint: "[reload]", Description: "List the skills (active ones marked); reload reads the skill folders again", Handler: e.skillsCommand},
		{Name: "undo", Description: "Restore the workspace to before the last turn's changes", Handler: e.undoCommand},
		{Name: "cost", Description: "Tokens and cost of this session", Handler: e.costCommand},
		{Name: "spec", ArgumentHint: "proposal|apply|archive|validate [change or idea]", Description: "Spec-driven changes: propose, apply, archive or validate a change", Handler: e.specCommand},
	}
}

// answerLocally shows text in the session as a notice (UI track only) and
// closes the command with turnFinished. A missing session is created.
func (e *Engine) answerLocally(ctx context.Context, sid, text string) (commandOutcome, error) {
	if sid == "" {
		s, err := e.CreateSession(ctx, "")
		if err != nil {
			return commandOutcome{}, err
		}
		sid = s.ID
	}
	m, err := e.Store.AppendMessage(ctx, sid, store.NewMessage{Role: store.RoleEvent, Status: store.StatusDone,
		Parts: []store.Part{{Kind: store.PartNotice, Notice: &store.Notice{Level: store.NoticeInfo, Text: text}}}})
	if err != nil {
		return commandOutcome{}, err
	}
	job := uuid.NewString()
	e.Bus.Publish(Event{SessionID: sid, TurnID: job, Kind: KindNotice, MessageID: m.ID, MessageSeq: m.Seq, Text: text})
	// The context in use goes with it: /clear changes it.
	e.Bus.Publish(Event{SessionID: sid, TurnID: job, Kind: KindTurnFinished, SubAgentTag: TagFree, Status: "done", Payload: e.ContextUse(ctx, sid)})
	return commandOutcome{handled: true, sessionID: sid, turnID: job}, nil
}

func (e *Engine) helpCommand(ctx context.Context, p SendParams, _ string) (commandOutcome, error) {
	var b strings.Builder
	b.WriteString(e.tr("Commands:"))
	for _, c := range e.Commands() {
		fmt.Fprintf(&b, "\n/%s", c.Name)
		if c.ArgumentHint != "" {
			b.WriteString(" " + c.ArgumentHint)
		}
		if c.Description != "" {
			b.WriteString(" — " + c.Description)
		}
	}
	return e.answerLocally(ctx, p.SessionID, b.String())
}

// newCommand opens a new session; the old one stays in the history. The
// new session's id is the outcome's, so the client switches to it; a
// session the command was typed in also gets its turnFinished.
func (e *Engine) newCommand(ctx context.Context, p SendParams, _ string) (commandOutcome, error) {
	s, err := e.CreateSession(ctx, "")
	if err != nil {
		return commandOutcome{}, err
	}
	out, err := e.answerLocally(ctx, s.ID, e.tr("New session started."))
	if err == nil && p.SessionID != "" {
		e.Bus.Publish(Event{SessionID: p.SessionID, TurnID: out.turnID, Kind: KindTurnFinished, SubAgentTag: TagFree, Status: "done"})
	}
	return out, err
}

// initCommand explores each root (initscan: the listing, the README, at
// most ten further files picked by score) and sends the model that
// survey with the task: read the picked files, then write AGENTS.md and
// the memory levels of the memory-bootstrap skill, every write a diff.
func (e *Engine) initCommand(_ context.Context, _ SendParams, _ string) (commandOutcome, error) {
	if e.opts.Headless && e.opts.Approve != "edits" && e.opts.Approve != "all" {
		// Refused before the model is asked: every write would be refused.
		return commandOutcome{}, errors.New(e.tr("/init writes AGENTS.md and .govibe/memory/ as edits, which this headless run does not approve: pass --approve edits (or --approve all)."))
	}
	surveys := make([]initscan.Survey, 0, len(e.opts.Roots))
	for _, r := range e.opts.Roots {
		surveys = append(surveys, initscan.Explore(r))
	}
	return commandOutcome{text: initscan.Prompt(surveys)}, nil
}

var specSteps = map[string]string{
	"proposal": "Write a change proposal (proposal.md, tasks.md, design.md if needed, and the spec deltas) for",
	"apply":    "Apply the change, working through its tasks.md, for",
	"archive":  "Archive the finished change (merge its deltas into specs/ and move it to the archive):",
	"validate": "Validate the change with validate_spec and fix what it reports:",
}

func (e *Engine) specCommand(_ context.Context, _ SendParams, args string) (commandOutcome, error) {
	step, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	step = strings.ToLower(step)
	what, ok := specSteps[step]
	if !ok {
		return commandOutcome{}, errors.New(e.tr("/spec needs a step: proposal, apply, archive or validate"))
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		rest = "the change under discussion"
	}
	return commandOutcome{text: fmt.Sprintf("Call load_skill(\"spec-driven\") and follow its %s step. %s %s", step, what, rest)}, nil
}

func (e *Engine) skillsCommand(ctx context.Context, p SendParams, args string) (commandOutcome, error) {
	c := e.skills.Catalog()
	switch strings.ToLower(strings.TrimSpace(args)) {
	case "":
	case "reload":
		c = e.skills.Reload()
	default:
		return commandOutcome{}, errors.New(e.tr("/skills takes no argument or \"reload\""))
	}
	active := map[string]bool{}
	for _, n := range e.skills.Active(ctx, p.SessionID) {
		active[n] = true
	}
	var b strings.Builder
	b.WriteString(e.tr("Skills:"))
	for _, n := range c.Names() {
		s, _ := c.Get(n)
		mark := ""
		if active[n] {
			mark = " ✓"
		}
		fmt.Fprintf(&b, "\n%s%s (%s) — %s", n, mark, s.Source, s.Description)
	}
	return e.answerLocally(ctx, p.SessionID, b.String())
}

func (e *Engine) costCommand(ctx context.Context, p SendParams, _ string) (commandOutcome, error) {
	if p.SessionID == "" {
		return e.answerLocally(ctx, "", e.tr("Nothing spent yet."))
	}
	u := e.SessionUsageOf(ctx, p.SessionID)
	return e.answerLocally(ctx, p.SessionID, e.tr("This session: %d requests, %d input tokens (%d cached), %d output tokens, cost %.4f.",
		u.Requests, u.PromptTokens, u.CachedTokens, u.CompletionTokens, u.Cost))
}

func (e *Engine) sessionsCommand(ctx context.Context, p SendParams, _ string) (commandOutcome, error) {
	list, err := e.ListSessions(ctx, 20)
	if err != nil {
		return commandOutcome{}, err
	}
	var b strings.Builder
	b.WriteString(e.tr("Recent sessions:"))
	for _, s := range list {
		fmt.Fprintf(&b, "\n%s  %s", s.ID, s.Title)
	}
	return e.answerLocally(ctx, p.SessionID, b.String())
}

// modelCommand shows or sets the session's model profile (a name from
// govibe.models, or a model name on the default endpoint).
func (e *Engine) modelCommand(ctx context.Context, p SendParams, args string) (commandOutcome, error) {
	name := strings.TrimSpace(args)
	if p.SessionID == "" {
		s, err := e.CreateSession(ctx, "")
		if err != nil {
			return commandOutcome{}, err
		}
		p.SessionID = s.ID
	}
	if name == "" {
		return e.answerLocally(ctx, p.SessionID, e.tr("Model: %s", e.sessionProfile(ctx, p.SessionID).Model))
	}
	if err := sessionstate.Set(ctx, e.Store, p.SessionID, sessionstate.Model, name); err != nil {
		return commandOutcome{}, err
	}
	return e.answerLocally(ctx, p.SessionID, e.tr("This session now uses %s.", e.sessionProfile(ctx, p.SessionID).Model))
}

// sessionProfile is the active profile with the session's /model choice.
func (e *Engine) sessionProfile(ctx context.Context, sid string) Profile {
	name := ""
	if sid != "" {
		name = sessionstate.Lookup(ctx, e.Store, sid, sessionstate.Model)
	}
	return e.namedProfile(name)
}

// turnProfile is the session's profile, or the one the turn's custom
// command names in its frontmatter.
func (e *Engine) turnProfile(ctx context.Context, t *turn) Profile {
	if t.model != "" {
		return e.namedProfile(t.model)
	}
	return e.sessionProfile(ctx, t.sessionID)
}

// namedProfile resolves a profile or model name ("" is the active one).
func (e *Engine) namedProfile(name string) Profile {
	if name == "" {
		return e.profile()
	}
	e.mu.Lock()
	v, keys := e.settings, e.apiKeys
	e.mu.Unlock()
	o := make(map[string]any, len(v)+1)
	for k, x := range v {
		o[k] = x
	}
	o["model"] = name
	return resolveProfile(o, keys)
}

// undoCommand restores, in each root, the before-turn snapshot of the
// session's latest turn that changed something.
func (e *Engine) undoCommand(ctx context.Context, p SendParams, _ string) (commandOutcome, error) {
	if p.SessionID == "" {
		return commandOutcome{}, errors.New(e.tr("/undo needs a session with a turn to undo"))
	}
	list, _, err := e.Snapshots(p.SessionID)
	if err != nil {
		return commandOutcome{}, err
	}
	latest, done := -1, map[string]bool{}
	var restored []string
	for _, s := range list { // newest first
		if s.Reason != "before turn" || done[s.Root] || (latest >= 0 && s.Turn != latest) {
			continue
		}
		latest = s.Turn
		if _, err := e.Restore(ctx, s.ID); err != nil {
			return commandOutcome{}, err
		}
		done[s.Root] = true
		restored = append(restored, s.Root)
	}
	if len(restored) == 0 {
		return e.answerLocally(ctx, p.SessionID, e.tr("Nothing to undo: no turn of this session changed files."))
	}
	return e.answerLocally(ctx, p.SessionID, e.tr("Restored the workspace to before turn %d.", latest))
}
