package turninput

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/contextfiles"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// The context files (AGENTS.md and the like) go once, in a session's
// first message, and after that only a notice with what changed; those
// of a sub-folder the work reached go with the tool result that reached
// it. What was sent is kept in session state (sessionstate.ContextFiles).

// contextFilesFor loads the context files in play and compares them with
// what the session was last sent: everything the first time, the added
// and changed files (and a line about removed ones) after a change,
// nothing otherwise.
func (a *Assembler) contextFilesFor(ctx context.Context, sid, activeFile string) (string, []string) {
	roots := a.d.Roots
	files, problems := contextfiles.Load(roots, a.d.Settings().ContextFiles)
	touched := a.d.Touched(sid)
	sub, p2 := contextfiles.ForTouched(roots, touched)
	files = append(files, sub...)
	a.reportProblems(sid, append(problems, p2...))
	var inPlay []string
	for _, p := range append(touched, activeFile) {
		for _, r := range roots {
			if rel, err := filepath.Rel(r, p); err == nil && !strings.HasPrefix(rel, "..") {
				inPlay = append(inPlay, filepath.ToSlash(rel))
			}
		}
	}
	files = contextfiles.Applicable(files, inPlay)

	prev, sent, _ := sessionstate.Get(ctx, a.d.Store, sid, sessionstate.ContextFiles)
	cur := make([]sessionstate.SentContextFile, len(files))
	for i, f := range files {
		cur[i] = sessionstate.SentContextFile{Root: f.Root, Rel: f.Rel, Hash: f.Hash}
	}
	var show []contextfiles.File
	note := ""
	if !sent {
		show = files
	} else {
		old := make([]contextfiles.File, len(prev))
		for i, s := range prev {
			old[i] = contextfiles.File{Root: s.Root, Rel: s.Rel, Hash: s.Hash}
		}
		added, changed, removed := contextfiles.Changes(old, files)
		if len(added)+len(changed)+len(removed) == 0 {
			return "", nil
		}
		fresh := map[string]bool{}
		for _, n := range append(added, changed...) {
			fresh[n] = true
		}
		for _, f := range files {
			if fresh[f.Rel] {
				show = append(show, f)
			}
		}
		note = changeNote(added, changed, removed)
	}
	if err := sessionstate.Set(ctx, a.d.Store, sid, sessionstate.ContextFiles, cur); err != nil {
		a.d.Log.Warn("recording the context files sent", zap.Error(err))
	}
	names := make([]string, len(show))
	for i, f := range show {
		names[i] = f.Rel
	}
	out := note + contextfiles.Render(show, len(roots) > 1)
	if out == "" {
		return "", names
	}
	return out + "\n\n", names
}

// changeNote is the model-facing notice of a change to the context files.
func changeNote(added, changed, removed []string) string {
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "added "+strings.Join(added, ", "))
	}
	if len(changed) > 0 {
		parts = append(parts, "changed "+strings.Join(changed, ", "))
	}
	if len(removed) > 0 {
		parts = append(parts, "removed "+strings.Join(removed, ", ")+" (no longer applies)")
	}
	return fmt.Sprintf("<context_files_changed>Context files changed since they were sent: %s.</context_files_changed>\n", strings.Join(parts, "; "))
}

// nestedContextNote is what the model reads with a tool result when the
// turn's work reached a folder whose AGENTS.md, CLAUDE.md or GEMINI.md it
// has not been sent: Claude Code and Codex load those files when the agent
// works below them, in the same turn, not at the next user message. The
// files are recorded as sent, so the next message's prelude does not send
// them again.
func (a *Assembler) nestedContextNote(ctx context.Context, sid string) string {
	roots := a.d.Roots
	touched := a.d.Touched(sid)
	if len(roots) == 0 || len(touched) == 0 {
		return ""
	}
	sub, problems := contextfiles.ForTouched(roots, touched)
	a.reportProblems(sid, problems)
	if len(sub) == 0 {
		return ""
	}
	prev, _, _ := sessionstate.Get(ctx, a.d.Store, sid, sessionstate.ContextFiles)
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
	if err := sessionstate.Set(ctx, a.d.Store, sid, sessionstate.ContextFiles, next); err != nil {
		a.d.Log.Warn("recording the context files sent", zap.Error(err))
	}
	return contextfiles.Render(fresh, len(roots) > 1)
}
