package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/govibe/govibe/server/internal/gate/sandbox"
	"github.com/govibe/govibe/server/internal/gate/watchdog"
)

// writeTarget is a write tool's target once the preamble every write tool
// shares has passed: edits are enabled, a FileTracker exists, the path is
// inside the workspace, and the file's lock is held until release.
type writeTarget struct {
	abs, display string
	sb           *sandbox.Sandbox
	release      func()
}

// beginWrite is that preamble (edit, write_file, delete_file). A refusal
// is model-visible; an error means the agent is misconfigured.
func beginWrite(env *Env, tool, path string) (*writeTarget, *Result, error) {
	if r := editsDisabled(env, tool); r != nil {
		return nil, r, nil
	}
	if err := needTracker(env); err != nil {
		return nil, nil, err
	}
	abs, sb, fail := resolveWrite(env, path)
	if fail != nil {
		return nil, fail, nil
	}
	release := env.Files.Lock(abs)
	return &writeTarget{abs: abs, display: sb.Display(abs), sb: sb, release: release}, nil, nil
}

// loadText loads the target's current content for a tool that rewrites
// text (edit, write_file): a folder, an oversized file or a binary one is
// refused; binaryHint ends the binary refusal with what to do instead.
// A missing file is not refused (cur.exists is false).
func (t *writeTarget) loadText(ctx context.Context, env *Env, path, tool, binaryHint string) (current, *Result) {
	cur, err := loadCurrent(ctx, env, t.abs)
	if err != nil {
		r := readFailure(env, path, err)
		return cur, &r
	}
	var r Result
	switch {
	case !cur.exists:
		return cur, nil
	case cur.isDir:
		r = FailShown(t.display+" is a folder, not a file", env.Tr("%s is a folder, not a file.", t.display))
	case cur.tooLarge:
		r = FailShown(fmt.Sprintf("%s is %s, over the size limit for %s", t.display, humanSize(cur.size), tool), tooLargeShown(env, t.display, cur.size))
	default:
		kind := binaryKind(cur.content)
		if kind == "" {
			return cur, nil
		}
		r = FailShown(fmt.Sprintf("%s is a binary file (%s); %s", t.display, kind, binaryHint), binaryShown(env, t.display, kind))
	}
	return cur, &r
}

// editsDisabled refuses a write tool when the user locked edits.
func editsDisabled(env *Env, tool string) *Result {
	if env.Settings.EditEnabled {
		return nil
	}
	r := FailShown(tool+" refused: edits are disabled by the user (the lock toggle is off). Describe the change instead, or ask the user to enable edits.",
		env.Tr("Not written: edits are turned off (the lock toggle)."))
	return &r
}

func needTracker(env *Env) error {
	if env.Files == nil {
		return errors.New("tools: Env.Files is nil; the agent must provide a FileTracker")
	}
	return nil
}

// beforeMutation calls env.BeforeMutation once per turn.
func beforeMutation(ctx context.Context, env *Env) {
	// The snapshot taken here is bounded by its own options, and its
	// parallel scan is not this call's work.
	defer watchdog.Pause(ctx)()
	env.Files.beginMutation(ctx, env.TurnID, env.BeforeMutation)
}

// checkFresh enforces edit safety for an existing file: it must have been
// read since the user's last message, and must not have changed since the
// model last saw it. lines names the range to re-read in the refusal.
func checkFresh(env *Env, abs, display string, cur current, lines string) *Result {
	if !env.Files.ReadThisTurn(abs) {
		r := Fail(fmt.Sprintf("refused: read %s with read_file first (files must be read since the user's last message before they are changed); nothing was written", display))
		r.Display = env.Tr("Not written: %s must be read first (the model has not read it since your last message).", display)
		return &r
	}
	if !env.Files.Unchanged(abs, cur.content) {
		r := Fail(fmt.Sprintf("refused: %s changed since you read it; re-read lines %s and retry; nothing was written", display, lines))
		r.Display = env.Tr("Not written: %s changed since the model read it.", display)
		return &r
	}
	return nil
}

// proposal is a computed change waiting for the user's decision and the
// write.
type proposal struct {
	tool    string
	abs     string
	display string
	before  []byte
	after   []byte
	isNew   bool
	delete  bool
	mode    fs.FileMode
	// stillCurrent re-checks, after the user's decision, that the file is
	// what the proposal was computed from.
	stillCurrent func() bool
	reread       string
}

// outcome is what was actually applied.
type outcome struct {
	content []byte // final content (nil for a delete)
	edited  bool   // the user changed the proposal
	note    string
	applied bool // written by the editor, not by us
	auto    *AutoApproval
}

// EditMeta is Result.Meta of an applied file change: enough for the UI to
// offer "Open diff" later.
type EditMeta struct {
	Path    string `json:"path"`
	Before  string `json:"before"`
	After   string `json:"after"`
	Created bool   `json:"created,omitempty"`
	Deleted bool   `json:"deleted,omitempty"`
	// AutoApproved says why no one was asked, when no one was.
	AutoApproved *AutoApproval `json:"autoApproved,omitempty"`
}

// apply asks for confirmation when configured, re-checks staleness, calls
// BeforeMutation once per turn and writes (or deletes) atomically. A nil
// outcome comes with the model-visible refusal.
func apply(ctx context.Context, env *Env, p proposal) (*outcome, *Result, error) {
	out := &outcome{content: p.after}
	if env.Settings.ConfirmChanges {
		if env.Approver == nil {
			r := FailShown(fmt.Sprintf("%s of %s needs confirmation; not approved (no one is available to approve it); nothing was written", p.tool, p.display),
				env.Tr("Not written: the change to %s needs approval and no one is available to approve it.", p.display))
			return nil, &r, nil
		}
		dec, err := env.Approver.ConfirmEdit(ctx, EditProposal{
			Path: p.abs, RelPath: p.display, Original: string(p.before), Proposed: string(p.after),
			IsNew: p.isNew, Delete: p.delete, Tool: p.tool, ToolCallID: CallID(ctx),
		})
		if err != nil {
			return nil, nil, fmt.Errorf("confirming %s of %s: %w", p.tool, p.display, err)
		}
		out.note = dec.Note
		out.auto = dec.Auto
		if !dec.Accepted {
			msg := fmt.Sprintf("the user rejected the %s of %s; nothing was written", p.tool, p.display)
			if dec.Note != "" {
				msg += "\nUser note: " + dec.Note
			}
			r := Fail(msg)
			r.Display = dec.Display
			if r.Display == "" {
				r.Display = env.Tr("Not written: the change to %s was rejected.", p.display)
			}
			if dec.ByUser {
				r.Meta = Declined{Declined: true, Reason: dec.Reason}
			}
			return nil, &r, nil
		}
		if dec.Applied {
			out.applied = true
			out.content = []byte(dec.Content)
			out.edited = !p.delete && dec.Content != string(p.after)
			return out, nil, nil
		}
		if !p.stillCurrent() {
			r := FailShown(fmt.Sprintf("refused: %s changed while waiting for your change to be approved; re-read lines %s and retry; nothing was written", p.display, p.reread),
				env.Tr("Not written: %s changed while the change waited for approval.", p.display))
			return nil, &r, nil
		}
		if !p.delete {
			out.edited = dec.Content != string(p.after)
			out.content = []byte(dec.Content)
		}
	}
	if err := context.Cause(ctx); err != nil && ctx.Err() != nil {
		// Stopped (by the user or the watchdog) while the change was
		// computed: nothing is written after the call was answered.
		return nil, nil, err
	}
	beforeMutation(ctx, env)
	if p.delete {
		if err := os.Remove(p.abs); err != nil {
			r := FailShown(fmt.Sprintf("could not delete %s: %v", p.display, err), errShown(env, p.display, err))
			return nil, &r, nil
		}
		out.content = nil
		return out, nil, nil
	}
	if p.isNew {
		// Parents are made only now, after approval, so a rejected
		// proposal leaves no trace.
		if err := os.MkdirAll(filepath.Dir(p.abs), 0o755); err != nil {
			r := FailShown(fmt.Sprintf("could not create the folder for %s: %v", p.display, err), errShown(env, p.display, err))
			return nil, &r, nil
		}
	}
	if err := writeAtomic(p.abs, out.content, p.mode); err != nil {
		r := FailShown(fmt.Sprintf("could not write %s: %v; the file is unchanged", p.display, err), errShown(env, p.display, err))
		return nil, &r, nil
	}
	return out, nil, nil
}

// appliedResult formats a successful change for the model and the UI.
func appliedResult(p proposal, o *outcome, summary string) Result {
	msg := summary
	if o.edited {
		msg += "\nThe user modified your change before accepting it; re-read the file before editing it again."
	}
	if o.note != "" {
		msg += "\nUser note: " + o.note
	}
	return Result{OK: true, Output: msg, Meta: EditMeta{
		Path: p.abs, Before: frozenString(p.before), After: frozenString(o.content), Created: p.isNew, Deleted: p.delete,
		AutoApproved: o.auto,
	}}
}

// frozenString views b as a string without copying. Callers pass buffers
// that nothing writes to afterwards (file contents read or built for one
// call), which saves two full-file copies per edit of a large file.
func frozenString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
