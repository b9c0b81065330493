package slashcmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/initscan"
)

// The built-in commands. Commands that answer by themselves (help, lists,
// undo) add a notice to the session's UI track only (the model never sees
// them) and close with turnFinished; /init, /spec and /reconcile become
// the turn's prompt.

func (c *Commands) newBuiltin() *Registry {
	r := newRegistry[Handler]()
	for _, cmd := range []Command{
		{Name: "compact", Description: c.h.Tr("Summarise the earlier messages of this session now"), Handler: c.compact},
		{Name: btwCommand, Aliases: []string{`\btw`}, ArgumentHint: "<question>",
			Description: c.h.Tr("Ask a side question; it leaves the conversation when the next normal message arrives"), Handler: btw},
		{Name: "reconcile", ArgumentHint: "<intent>", Description: c.h.Tr("Reconcile mode: draft a Vibe Manifest from the intent"), Handler: c.reconcile},
		{Name: "help", Description: c.h.Tr("List the chat's commands"), Handler: c.help},
		{Name: "new", Description: c.h.Tr("Start a new session (this one stays in the history)"), Handler: c.newSession},
		{Name: "clear", Description: c.h.Tr("Clear the model's context in this session: it forgets the earlier messages, which stay here to read"), Handler: c.clear},
		{Name: "init", Description: c.h.Tr("Explore the project and write AGENTS.md and the project memory (every write is shown as a diff)"), Handler: c.initProject},
		{Name: "model", ArgumentHint: "[profile]", Description: c.h.Tr("Show or switch the model profile of this session"), Handler: c.model},
		{Name: "sessions", Description: c.h.Tr("List recent sessions"), Handler: c.sessions},
		{Name: "skills", ArgumentHint: "[reload]", Description: c.h.Tr("List the skills (active ones marked); reload reads the skill folders again"), Handler: c.skills},
		{Name: "undo", Description: c.h.Tr("Restore the workspace to before the last turn's changes"), Handler: c.undo},
		{Name: "cost", Description: c.h.Tr("Tokens and cost of this session"), Handler: c.cost},
		{Name: "spec", ArgumentHint: "proposal|apply|archive|validate [change or idea]", Description: c.h.Tr("Spec-driven changes: propose, apply, archive or validate a change"), Handler: c.spec},
	} {
		if err := r.Register(cmd); err != nil {
			panic(err) // the built-in table is constant: a clash is a programming error
		}
	}
	return r
}

// answer shows text in the session as a notice (UI track only) and closes
// the command with turnFinished. A missing session is created.
func (c *Commands) answer(ctx context.Context, sid, text string) (Outcome, error) {
	if sid == "" {
		id, err := c.h.CreateSession(ctx)
		if err != nil {
			return Outcome{}, err
		}
		sid = id
	}
	m, err := c.st.AppendMessage(ctx, sid, store.NewMessage{Role: store.RoleEvent, Status: store.StatusDone,
		Parts: []store.Part{{Kind: store.PartNotice, Notice: &store.Notice{Level: store.NoticeInfo, Text: text}}}})
	if err != nil {
		return Outcome{}, err
	}
	job := uuid.NewString()
	c.h.PublishNotice(sid, job, m, text)
	// The context in use goes with it: /clear changes it.
	c.h.PublishFinished(ctx, sid, job, true)
	return Outcome{Handled: true, SessionID: sid, TurnID: job}, nil
}

// compact handles "/compact": it compacts in the background instead of
// starting a model turn. Its turn id names the job; a turnFinished event
// with that id closes it.
func (c *Commands) compact(ctx context.Context, p Params, _ string) (Outcome, error) {
	if p.SessionID == "" {
		return Outcome{}, errors.New("/compact needs a session with messages to summarise")
	}
	job, err := c.h.StartCompaction(ctx, p.SessionID)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Handled: true, SessionID: p.SessionID, TurnID: job}, nil
}

// btw starts or continues a side conversation: the prefix is removed from
// what the model sees.
func btw(_ context.Context, _ Params, args string) (Outcome, error) {
	return Outcome{Text: args, BTW: true}, nil
}

// reconcile handles "/reconcile <intent>".
func (c *Commands) reconcile(ctx context.Context, p Params, args string) (Outcome, error) {
	text, err := c.o.Reconcile.DraftCommand(ctx, p.SessionID, args)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Text: text}, nil
}

func (c *Commands) help(ctx context.Context, p Params, _ string) (Outcome, error) {
	var b strings.Builder
	b.WriteString(c.h.Tr("Commands:"))
	for _, x := range c.List() {
		fmt.Fprintf(&b, "\n/%s", x.Name)
		if x.ArgumentHint != "" {
			b.WriteString(" " + x.ArgumentHint)
		}
		if x.Description != "" {
			b.WriteString(" — " + x.Description)
		}
	}
	return c.answer(ctx, p.SessionID, b.String())
}

// newSession opens a new session; the old one stays in the history. The
// new session's id is the outcome's, so the client switches to it; a
// session the command was typed in also gets its turnFinished.
func (c *Commands) newSession(ctx context.Context, p Params, _ string) (Outcome, error) {
	sid, err := c.h.CreateSession(ctx)
	if err != nil {
		return Outcome{}, err
	}
	out, err := c.answer(ctx, sid, c.h.Tr("New session started."))
	if err == nil && p.SessionID != "" {
		c.h.PublishFinished(ctx, p.SessionID, out.TurnID, false)
	}
	return out, err
}

// initProject explores each root (initscan: the listing, the README, at most ten
// further files picked by score) and sends the model that survey with the
// task: read the picked files, then write AGENTS.md and the memory levels
// of the memory-bootstrap skill, every write a diff.
func (c *Commands) initProject(_ context.Context, _ Params, _ string) (Outcome, error) {
	if c.o.Headless && c.o.Approve != "edits" && c.o.Approve != "all" {
		// Refused before the model is asked: every write would be refused.
		return Outcome{}, errors.New(c.h.Tr("/init writes AGENTS.md and .govibe/memory/ as edits, which this headless run does not approve: pass --approve edits (or --approve all)."))
	}
	surveys := make([]initscan.Survey, 0, len(c.o.Roots))
	for _, r := range c.o.Roots {
		surveys = append(surveys, initscan.Explore(r))
	}
	return Outcome{Text: initscan.Prompt(surveys)}, nil
}

var specSteps = map[string]string{
	"proposal": "Write a change proposal (proposal.md, tasks.md, design.md if needed, and the spec deltas) for",
	"apply":    "Apply the change, working through its tasks.md, for",
	"archive":  "Archive the finished change (merge its deltas into specs/ and move it to the archive):",
	"validate": "Validate the change with validate_spec and fix what it reports:",
}

func (c *Commands) spec(_ context.Context, _ Params, args string) (Outcome, error) {
	step, rest, _ := strings.Cut(strings.TrimSpace(args), " ")
	step = strings.ToLower(step)
	what, ok := specSteps[step]
	if !ok {
		return Outcome{}, errors.New(c.h.Tr("/spec needs a step: proposal, apply, archive or validate"))
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		rest = "the change under discussion"
	}
	return Outcome{Text: fmt.Sprintf("Call load_skill(\"spec-driven\") and follow its %s step. %s %s", step, what, rest)}, nil
}

func (c *Commands) skills(ctx context.Context, p Params, args string) (Outcome, error) {
	cat := c.o.Skills.Catalog()
	switch strings.ToLower(strings.TrimSpace(args)) {
	case "":
	case "reload":
		cat = c.o.Skills.Reload()
	default:
		return Outcome{}, errors.New(c.h.Tr("/skills takes no argument or \"reload\""))
	}
	active := map[string]bool{}
	for _, n := range c.o.Skills.Active(ctx, p.SessionID) {
		active[n] = true
	}
	var b strings.Builder
	b.WriteString(c.h.Tr("Skills:"))
	for _, n := range cat.Names() {
		s, _ := cat.Get(n)
		mark := ""
		if active[n] {
			mark = " ✓"
		}
		fmt.Fprintf(&b, "\n%s%s (%s) — %s", n, mark, s.Source, s.Description)
	}
	return c.answer(ctx, p.SessionID, b.String())
}

func (c *Commands) cost(ctx context.Context, p Params, _ string) (Outcome, error) {
	if p.SessionID == "" {
		return c.answer(ctx, "", c.h.Tr("Nothing spent yet."))
	}
	u := c.h.Usage(ctx, p.SessionID)
	return c.answer(ctx, p.SessionID, c.h.Tr("This session: %d requests, %d input tokens (%d cached), %d output tokens, cost %.4f.",
		u.Requests, u.PromptTokens, u.CachedTokens, u.CompletionTokens, u.Cost))
}

func (c *Commands) sessions(ctx context.Context, p Params, _ string) (Outcome, error) {
	list, err := c.h.RecentSessions(ctx, 20)
	if err != nil {
		return Outcome{}, err
	}
	var b strings.Builder
	b.WriteString(c.h.Tr("Recent sessions:"))
	for _, s := range list {
		fmt.Fprintf(&b, "\n%s  %s", s.ID, s.Title)
	}
	return c.answer(ctx, p.SessionID, b.String())
}

// model shows or sets the session's model profile (a name from
// govibe.models, or a model name on the default endpoint).
func (c *Commands) model(ctx context.Context, p Params, args string) (Outcome, error) {
	name := strings.TrimSpace(args)
	if p.SessionID == "" {
		id, err := c.h.CreateSession(ctx)
		if err != nil {
			return Outcome{}, err
		}
		p.SessionID = id
	}
	if name == "" {
		return c.answer(ctx, p.SessionID, c.h.Tr("Model: %s", c.h.SessionModel(ctx, p.SessionID)))
	}
	if err := sessionstate.Set(ctx, c.st, p.SessionID, sessionstate.Model, name); err != nil {
		return Outcome{}, err
	}
	return c.answer(ctx, p.SessionID, c.h.Tr("This session now uses %s.", c.h.SessionModel(ctx, p.SessionID)))
}

// undo restores, in each root, the before-turn snapshot of the session's
// latest turn that changed something.
func (c *Commands) undo(ctx context.Context, p Params, _ string) (Outcome, error) {
	if p.SessionID == "" {
		return Outcome{}, errors.New(c.h.Tr("/undo needs a session with a turn to undo"))
	}
	list, err := c.h.Snapshots(p.SessionID)
	if err != nil {
		return Outcome{}, err
	}
	latest, done := -1, map[string]bool{}
	var restored []string
	for _, s := range list { // newest first
		if s.Reason != "before turn" || done[s.Root] || (latest >= 0 && s.Turn != latest) {
			continue
		}
		latest = s.Turn
		if err := c.h.Restore(ctx, s.ID); err != nil {
			return Outcome{}, err
		}
		done[s.Root] = true
		restored = append(restored, s.Root)
	}
	if len(restored) == 0 {
		return c.answer(ctx, p.SessionID, c.h.Tr("Nothing to undo: no turn of this session changed files."))
	}
	return c.answer(ctx, p.SessionID, c.h.Tr("Restored the workspace to before turn %d.", latest))
}
