//go:build linux || darwin

package snapshot

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// dirHandle is an open directory. Children are opened and stat-ed relative
// to its descriptor (openat/fstatat), so the kernel resolves one path
// component per call instead of the whole absolute path: on big trees this
// is most of a scan's cost.
type dirHandle struct {
	f  *os.File
	fd int
}

func openRootDir(abs string) (*dirHandle, error) {
	f, _, err := safefile.Open(abs, safefile.Options{Dir: true})
	if err != nil {
		return nil, err
	}
	return &dirHandle{f: f, fd: int(f.Fd())}, nil
}

func (d *dirHandle) openChild(name, abs string) (*dirHandle, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	return &dirHandle{f: os.NewFile(uintptr(fd), abs), fd: fd}, nil
}

func (d *dirHandle) entries() ([]fs.DirEntry, error) { return d.f.ReadDir(-1) }

func (d *dirHandle) close() { d.f.Close() }

func (d *dirHandle) lstat(name, abs string) (fileStat, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fileStat{}, &fs.PathError{Op: "lstat", Path: abs, Err: err}
	}
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	default:
		mode |= fs.ModeIrregular
	}
	return fileStat{
		mode:  mode,
		size:  st.Size,
		mtime: st.Mtim.Nano(),
		ctime: st.Ctim.Nano(),
		ino:   uint64(st.Ino),
	}, nil
}

func platformStat(fi os.FileInfo) (ctime int64, ino uint64) {
	if st, ok := fi.Sys().(*syscallStat); ok {
		return syscallCtime(st), uint64(st.Ino)
	}
	return 0, 0
}
