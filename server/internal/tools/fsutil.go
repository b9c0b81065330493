package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/govibe/govibe/server/internal/sandbox"
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
		r := Fail(err.Error())
		return "", sb, &r
	}
	return abs, sb, nil
}

func resolveWrite(env *Env, path string) (string, *sandbox.Sandbox, *Result) {
	sb := sandboxOf(env)
	abs, err := sb.ResolveForWrite(path)
	if err != nil {
		r := Fail(err.Error())
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
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
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
	if fi.Size() > maxFileSize(env) {
		c.tooLarge = true
		return c, nil
	}
	c.content, err = os.ReadFile(abs)
	return c, err
}

// writeAtomic replaces path's content via a temp file in the same
// directory and a rename, so readers never see a half-written file and a
// failed write leaves the old content intact. A symlink is written through
// (its target is replaced, the link kept). No fsync: like editors, we
// protect against torn files, not against power loss.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	} else if mode == 0 {
		mode = 0o644
	}
	dir := filepath.Dir(target)
	f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".govibe-*")
	if err != nil {
		return fmt.Errorf("creating temp file in %s: %w", dir, err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		return err
	}
	ok = true
	return nil
}
