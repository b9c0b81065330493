package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/govibe/govibe/server/internal/gate/sandbox"
	"github.com/govibe/govibe/server/internal/util/fsatomic"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// defaultMaxFileSize bounds what a tool loads into memory when
// Settings.MaxFileSizeBytes is unset.
const defaultMaxFileSize = 64 << 20

func maxFileSize(env *Env) int64 {
	if env.Settings.MaxFileSizeBytes > 0 {
		return env.Settings.MaxFileSizeBytes
	}
	return defaultMaxFileSize
}

func sandboxOf(env *Env) *sandbox.Sandbox { return sandbox.New(env.Roots) }

// resolve maps a model path for reading; the failure is model-visible.
func resolve(env *Env, path string) (string, *sandbox.Sandbox, *Result) {
	sb := sandboxOf(env)
	abs, err := sb.Resolve(path)
	if err != nil {
		r := failFrom(env, err)
		return "", sb, &r
	}
	return abs, sb, nil
}

// resolveRead is resolve for a tool that reads the path's content or
// lists it: the Read permission rules apply.
func resolveRead(env *Env, path string) (string, *sandbox.Sandbox, *Result) {
	abs, sb, fail := resolve(env, path)
	if fail != nil {
		return abs, sb, fail
	}
	if err := env.readable(abs); err != nil {
		r := failFrom(env, err)
		return "", sb, &r
	}
	return abs, sb, nil
}

func (env *Env) readable(abs string) error {
	if env == nil || env.Readable == nil {
		return nil
	}
	return env.Readable(abs)
}

// withheldNote tells the model that a listing or search left out n
// entries because the user's Read rules deny them.
func withheldNote(n int, what string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("\n[%d %s withheld: the user's Read permission rules deny reading them.]", n, what)
}

func resolveWrite(env *Env, path string) (string, *sandbox.Sandbox, *Result) {
	sb := sandboxOf(env)
	abs, err := sb.ResolveForWrite(path)
	if err != nil {
		r := failFrom(env, err)
		return "", sb, &r
	}
	return abs, sb, nil
}

// current is the content a tool works on: the editor's unsaved buffer when
// there is one, else the file on disk.
type current struct {
	content  []byte
	exists   bool
	isDir    bool
	dirty    bool // content came from an unsaved editor buffer
	size     int64
	mode     fs.FileMode
	tooLarge bool
}

func loadCurrent(ctx context.Context, env *Env, abs string) (current, error) {
	var c current
	// Opened once, its kind checked on the descriptor: a FIFO or a device
	// in the workspace is refused here, never read (issue 31).
	f, fi, err := safefile.Open(abs, safefile.Options{Dir: true})
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		if st, serr := os.Stat(abs); serr == nil && st.IsDir() {
			// A folder that cannot be opened is still a folder.
			c.exists, c.isDir, c.mode = true, true, st.Mode().Perm()
			return c, nil
		}
		return c, err
	}
	defer f.Close()
	c.exists, c.isDir, c.size, c.mode = true, fi.IsDir(), fi.Size(), fi.Mode().Perm()
	if c.isDir {
		return c, nil
	}
	if env.Host != nil {
		text, dirty, herr := env.Host.DirtyBuffer(ctx, abs)
		if herr == nil && dirty {
			c.content, c.dirty = []byte(text), true
			return c, nil
		}
	}
	c.content, err = safefile.ReadAll(f, fi.Size(), maxFileSize(env))
	var tl *safefile.TooLargeError
	if errors.As(err, &tl) {
		c.content, c.tooLarge, c.size = nil, true, tl.Size
		return c, nil
	}
	return c, err
}

// readFailure words a file that could not be loaded: a FIFO, a device or
// a socket by its kind (with what to do instead), anything else by its
// error.
func readFailure(env *Env, path string, err error) Result {
	var ke *safefile.KindError
	if errors.As(err, &ke) {
		return FailShown(ke.Explain(path), errShown(env, path, err))
	}
	return FailShown(fmt.Sprintf("cannot read %s: %v", path, err), errShown(env, path, err))
}

// writeAtomic replaces path's content the way an editor saves (see
// fsatomic.ReplaceFile): a symlink is written through, an existing file
// keeps its mode, and a failed write leaves the old content intact.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	return fsatomic.ReplaceFile(path, data, mode.Perm())
}
