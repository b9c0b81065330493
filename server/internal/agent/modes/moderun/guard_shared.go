package moderun

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// runShared runs a write to a shared config file (package.json,
// vite.config.*…) and judges it by the file's content before and after,
// since whether it touches the test configuration is in the edit, not the
// path (the edit tool's result cannot be known before it runs). A refused
// write is undone: the file gets its old bytes back, or is removed when it
// did not exist.
// maxSharedFile bounds the before and after reads of a shared config file.
const maxSharedFile = 64 << 20

func (g pathGuard) runShared(ctx context.Context, env *tools.Env, args json.RawMessage, p, rel string) (tools.Result, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		roots := g.roots
		if env != nil && len(env.Roots) > 0 {
			roots = env.Roots
		}
		if len(roots) == 0 {
			return tools.FailShown("no workspace root to resolve "+p+" against", env.Tr("No workspace folder is open.")), nil
		}
		abs = filepath.Join(roots[0], p)
	}
	// Through safefile: package.json made a FIFO must not block the turn
	// (issue 31); the write tool refuses it by kind just after.
	before, rerr := safefile.ReadFile(abs, maxSharedFile)
	existed := rerr == nil
	if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		return tools.FailShown("cannot read "+p+" before writing it: "+rerr.Error(), env.Tr("Could not access %s: %v", p, rerr)), nil
	}
	res, err := g.Tool.Run(ctx, env, args)
	if err != nil || !res.OK {
		return res, err
	}
	after, aerr := safefile.ReadFile(abs, maxSharedFile)
	if aerr != nil && !errors.Is(aerr, fs.ErrNotExist) {
		after = nil
	}
	if verr := g.shared(rel, before, after); verr != nil {
		var undo error
		if existed {
			undo = os.WriteFile(abs, before, 0o644)
		} else {
			undo = os.Remove(abs)
		}
		// The model's view of the file is the refused content: the
		// tracker gets the restored bytes, and a fresh read is due
		// before the next line edit.
		if env != nil && env.Files != nil {
			if existed {
				env.Files.MustReread(abs, before)
			} else {
				env.Files.Forget(abs)
			}
		}
		msg := verr.Error() + "; read it again before writing it"
		if undo != nil && !errors.Is(undo, fs.ErrNotExist) {
			msg += " (undoing it failed: " + undo.Error() + ")"
		}
		return tools.FailShown(msg, env.Tr("Not written: this step may not change the test part of %s; the change was undone.", rel)), nil
	}
	return res, err
}
