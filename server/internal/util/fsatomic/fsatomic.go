// Package fsatomic writes files atomically: the data goes to a temporary
// file in the destination's directory, which is then renamed over the
// destination. Readers see the old content or the new, never a torn file,
// and a failed write leaves the old file intact and no temporary file
// behind. There is no fsync: like editors, this protects against torn
// files and concurrent readers, not against power loss.
package fsatomic

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// tempPrefix marks our temporary files, so a leftover one (after a crash
// between create and rename) is recognisable.
const tempPrefix = ".govibe-tmp-"

// WriteFile replaces path with data and gives it exactly the permission
// bits perm (not reduced by the umask). A symlink at path is replaced by
// the file, not written through.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	if err := check(path, perm); err != nil {
		return err
	}
	return write(path, data, perm)
}

// ReplaceFile replaces the content of path the way an editor saves: a
// symlink is written through (its target gets the data, the link stays),
// and an existing file keeps its permission bits. perm applies only to a
// new file; zero means 0644.
func ReplaceFile(path string, data []byte, perm fs.FileMode) error {
	if perm == 0 {
		perm = 0o644
	}
	if err := check(path, perm); err != nil {
		return err
	}
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	if fi, err := os.Stat(target); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("fsatomic: %s is a directory", path)
		}
		if !fi.Mode().IsRegular() {
			// A FIFO, a device or a socket: saving over it would replace
			// the node the user made with a file, and writing through
			// it would block or reach hardware (issue 31).
			return &safefile.KindError{Path: path, Mode: fi.Mode().Type()}
		}
		perm = fi.Mode().Perm()
	}
	return write(target, data, perm)
}

func check(path string, perm fs.FileMode) error {
	if path == "" {
		return errors.New("fsatomic: empty path")
	}
	if perm&^fs.ModePerm != 0 {
		return fmt.Errorf("fsatomic: mode %v has bits other than permissions", perm)
	}
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("fsatomic: %s is a directory", path)
	}
	return nil
}

func write(path string, data []byte, perm fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, tempPrefix+filepath.Base(path)+"-")
	if err != nil {
		return fmt.Errorf("fsatomic: create a temporary file in %s: %w", dir, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("fsatomic: write %s: %w", path, err)
	}
	// Chmod on the open file is not subject to the umask, unlike the mode
	// given at creation.
	if err = f.Chmod(perm); err != nil {
		f.Close()
		return fmt.Errorf("fsatomic: chmod %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("fsatomic: write %s: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("fsatomic: replace %s: %w", path, err)
	}
	return nil
}
