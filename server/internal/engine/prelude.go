package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/contextfiles"
	"github.com/govibe/govibe/server/internal/mentions"
	"github.com/govibe/govibe/server/internal/sessionstate"
)

// What a user message carries to the model besides its text: the context
// files (AGENTS.md and the like) once, in a session's first message, and
// after that only a notice with what changed; and the expansion of its
// @mentions. Both go into the model track's user message, never into the
// system prompt, whose bytes stay stable for the provider's cache.

// UserExtras is what the UI shows on a user message: the context files
// loaded with it and the attachments its mentions produced.
type UserExtras struct {
	ContextFiles []string
	Attachments  []mentions.Attachment
}

// prelude returns the model-track text that goes before and after the
// user's text, and what the UI shows about it.
func (e *Engine) prelude(ctx context.Context, t *turn, p SendParams) (before, after string, ex UserExtras) {
	if !t.btw {
		before, ex.ContextFiles = e.contextFilesFor(ctx, t.sessionID, p.ActiveFile)
	}
	if len(mentions.Parse(t.text)) > 0 {
		ex.Attachments = mentions.Expand(ctx, e.toolEnv(ctx, t), t.text, e.mentionSources())
		if r := mentions.Render(ex.Attachments); r != "" {
			after = "\n\n" + r
		}
	}
	return before, after, ex
}

// contextFilesFor loads the context files in play and compares them with
// what the session was last sent: everything the first time, the added
// and changed files (and a line about removed ones) after a change,
// nothing otherwise.
func (e *Engine) contextFilesFor(ctx context.Context, sid, activeFile string) (string, []string) {
	roots := e.opts.Roots
	files, problems := contextfiles.Load(roots, e.cfg().ContextFiles)
	touched := e.tracker(sid).Paths()
	sub, p2 := contextfiles.ForTouched(roots, touched)
	files = append(files, sub...)
	for _, err := range append(problems, p2...) {
		// Once per session: a malformed file is said where the user looks.
		if e.reported.first("contextfile\x00" + sid + "\x00" + err.Error()) {
			e.log.Warn("context file", zap.Error(err))
			e.Bus.Publish(Event{SessionID: sid, Kind: kinds.Notice, Status: "warn", Text: e.Tr("Context file not loaded: %s", err.Error())})
		}
	}
	var inPlay []string
	for _, p := range append(touched, activeFile) {
		for _, r := range roots {
			if rel, err := filepath.Rel(r, p); err == nil && !strings.HasPrefix(rel, "..") {
				inPlay = append(inPlay, filepath.ToSlash(rel))
			}
		}
	}
	files = contextfiles.Applicable(files, inPlay)

	prev, sent, _ := sessionstate.Get(ctx, e.Store, sid, sessionstate.ContextFiles)
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
	if err := sessionstate.Set(ctx, e.Store, sid, sessionstate.ContextFiles, cur); err != nil {
		e.log.Warn("recording the context files sent", zap.Error(err))
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

// mentionSources reach what is not a workspace file: MCP resources and,
// with an editor attached, the active terminal (its newest output, no more
// than one attachment holds).
func (e *Engine) mentionSources() mentions.Sources {
	src := mentions.Sources{MCPResource: func(ctx context.Context, server, uri string) (string, error) {
		return e.MCP.Manager().ReadResource(ctx, server, uri)
	}}
	if term := e.opts.Terminal; term != nil {
		src.Terminal = func(ctx context.Context) (string, error) {
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			return term(ctx, mentions.MaxAttachment)
		}
	}
	return src
}
