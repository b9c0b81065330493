//go:build !linux && !darwin

package snapshot

import (
	"io/fs"
	"os"
)

// dirHandle falls back to plain path-based calls where openat/fstatat are
// not available.
type dirHandle struct{ abs string }

func openRootDir(abs string) (*dirHandle, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: abs, Err: fs.ErrInvalid}
	}
	return &dirHandle{abs: abs}, nil
}

func (d *dirHandle) openChild(name, abs string) (*dirHandle, error) { return &dirHandle{abs: abs}, nil }

func (d *dirHandle) entries() ([]fs.DirEntry, error) { return os.ReadDir(d.abs) }

func (d *dirHandle) close() {}

func (d *dirHandle) lstat(name, abs string) (fileStat, error) {
	fi, err := os.Lstat(abs)
	if err != nil {
		return fileStat{}, err
	}
	return fileStat{mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime().UnixNano()}, nil
}

// platformStat has nothing beyond size and mtime to offer here; the cache
// then relies on those, as git does with core.trustctime=false.
func platformStat(fi os.FileInfo) (ctime int64, ino uint64) { return 0, 0 }
