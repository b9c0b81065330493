package turninput

import (
	"context"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/mentions"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Store is the session storage the assembler reads and writes: the
// session state (context files sent, message extras) and the messages a
// hook's transcript is written from. *store.Store implements it.
type Store interface {
	sessionstate.KV
	LoadMessages(ctx context.Context, sessionID string, beforeSeq int64, limit int) (store.MessagePage, error)
}

// Deps are the assembler's collaborators.
type Deps struct {
	Store    Store
	Roots    []string
	StateDir string // where hooks' transcripts are written
	Settings func() config.Settings
	// Touched are the files the session's work read or wrote (its file
	// tracker): their folders' context files apply.
	Touched func(sid string) []string
	// Warn tells the session's chat something went wrong (a warning
	// notice); the text is already translated.
	Warn func(sid, text string)
	Tr   func(format string, args ...any) string
	// ReadResource reads an MCP resource for an @mention.
	ReadResource func(ctx context.Context, server, uri string) (string, error)
	// Terminal reads the active terminal's recent output for an
	// @terminal mention; nil when no editor is attached.
	Terminal func(ctx context.Context, maxChars int) (string, error)
	// ClosedNote is what the model reads about a question of the turn's
	// the user closed ("" when none).
	ClosedNote func(sid, turnID string) string
	// Mode is the session's working mode (the running turn's view when
	// one runs).
	Mode func(ctx context.Context, sid string) modes.Mode
	// Headless runs approve by Approve (none|edits|all), not by settings.
	Headless bool
	Approve  string
	Log      *zap.Logger
}

// Assembler builds a turn's user message input. Safe for concurrent use.
type Assembler struct {
	d Deps

	mu sync.Mutex
	// reported are the context-file problems already shown, per session.
	reported map[string]bool
}

// New returns an assembler over d.
func New(d Deps) *Assembler {
	if d.Log == nil {
		d.Log = zap.NewNop()
	}
	return &Assembler{d: d, reported: map[string]bool{}}
}

// Message is the user message a turn begins with.
type Message struct {
	SessionID, TurnText, ActiveFile string
	// BTW messages (a side question) get no context files.
	BTW bool
	// Env is the turn's tool environment, built only when the text has
	// mentions to expand.
	Env func() *tools.Env
}

// Prelude returns the model-track text that goes before and after the
// user's text, and what the UI shows about it.
func (a *Assembler) Prelude(ctx context.Context, m Message) (before, after string, ex Extras) {
	if !m.BTW {
		before, ex.ContextFiles = a.contextFilesFor(ctx, m.SessionID, m.ActiveFile)
	}
	if len(mentions.Parse(m.TurnText)) > 0 {
		ex.Attachments = mentions.Expand(ctx, m.Env(), m.TurnText, a.mentionSources())
		if r := mentions.Render(ex.Attachments); r != "" {
			after = "\n\n" + r
		}
	}
	return before, after, ex
}

// mentionSources reach what is not a workspace file: MCP resources and,
// with an editor attached, the active terminal (its newest output, no more
// than one attachment holds).
func (a *Assembler) mentionSources() mentions.Sources {
	src := mentions.Sources{MCPResource: a.d.ReadResource}
	if term := a.d.Terminal; term != nil {
		src.Terminal = func(ctx context.Context) (string, error) {
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			return term(ctx, mentions.MaxAttachment)
		}
	}
	return src
}

// Notes is agent.Run.Notes for a turn's runs: a closed question's
// dialog, then the nested context files the work reached.
func (a *Assembler) Notes(ctx context.Context, sid, turnID string) func() string {
	return func() string {
		notes := a.d.ClosedNote(sid, turnID)
		if n := a.nestedContextNote(ctx, sid); n != "" {
			if notes != "" {
				notes += "\n\n"
			}
			notes += n
		}
		return notes
	}
}

// reportProblems shows each context file problem once per session: a
// malformed file is said where the user looks.
func (a *Assembler) reportProblems(sid string, problems []error) {
	for _, err := range problems {
		key := sid + "\x00" + err.Error()
		a.mu.Lock()
		seen := a.reported[key]
		a.reported[key] = true
		a.mu.Unlock()
		if !seen {
			a.d.Log.Warn("context file", zap.Error(err))
			a.d.Warn(sid, a.d.Tr("Context file not loaded: %s", err.Error()))
		}
	}
}
