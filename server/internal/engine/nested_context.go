package engine

import (
	"context"

	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/contextfiles"
	"github.com/govibe/govibe/server/internal/sessionstate"
)

// nestedContextNote is what the model reads with a tool result when the
// turn's work reached a folder whose AGENTS.md, CLAUDE.md or GEMINI.md it
// has not been sent: Claude Code and Codex load those files when the agent
// works below them, in the same turn, not at the next user message. The
// files are recorded as sent, so the next message's prelude does not send
// them again.
func (e *Engine) nestedContextNote(ctx context.Context, sid string) string {
	roots := e.opts.Roots
	touched := e.tracker(sid).Paths()
	if len(roots) == 0 || len(touched) == 0 {
		return ""
	}
	sub, problems := contextfiles.ForTouched(roots, touched)
	for _, err := range problems {
		if e.reported.first("contextfile\x00" + sid + "\x00" + err.Error()) {
			e.log.Warn("context file", zap.Error(err))
			e.Bus.Publish(Event{SessionID: sid, Kind: kinds.Notice, Status: "warn", Text: e.Tr("Context file not loaded: %s", err.Error())})
		}
	}
	if len(sub) == 0 {
		return ""
	}
	prev, _, _ := sessionstate.Get(ctx, e.Store, sid, sessionstate.ContextFiles)
	sent := map[string]string{}
	for _, s := range prev {
		sent[s.Root+"\x00"+s.Rel] = s.Hash
	}
	var fresh []contextfiles.File
	for _, f := range sub {
		if h, ok := sent[f.Key()]; !ok || h != f.Hash {
			fresh = append(fresh, f)
		}
	}
	if len(fresh) == 0 {
		return ""
	}
	next := append([]sessionstate.SentContextFile{}, prev...)
	for _, f := range fresh {
		replaced := false
		for i := range next {
			if next[i].Root == f.Root && next[i].Rel == f.Rel {
				next[i].Hash, replaced = f.Hash, true
			}
		}
		if !replaced {
			next = append(next, sessionstate.SentContextFile{Root: f.Root, Rel: f.Rel, Hash: f.Hash})
		}
	}
	if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.ContextFiles, next); err != nil {
		e.log.Warn("recording the context files sent", zap.Error(err))
	}
	return contextfiles.Render(fresh, len(roots) > 1)
}

// toolNotes is agent.Run.Notes for a turn's runs: a closed question's
// dialog, then the nested context files the work reached.
func (e *Engine) toolNotes(ctx context.Context, t *turn) func() string {
	return func() string {
		notes := e.Broker.ClosedNote(t.sessionID, t.id)
		if n := e.nestedContextNote(ctx, t.sessionID); n != "" {
			if notes != "" {
				notes += "\n\n"
			}
			notes += n
		}
		return notes
	}
}
