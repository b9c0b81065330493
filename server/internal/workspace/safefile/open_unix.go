//go:build unix

package safefile

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

var errIsDir = syscall.EISDIR

// openChecked opens path read-only with O_NONBLOCK, so that a FIFO returns
// at once instead of waiting for a writer, checks the kind on the opened
// descriptor, and only then clears O_NONBLOCK and hands the descriptor to
// the os package (which would otherwise register a FIFO with the poller).
func openChecked(path string, o Options) (*os.File, error) {
	flags := unix.O_RDONLY | unix.O_NONBLOCK | unix.O_CLOEXEC | unix.O_NOCTTY
	if o.NoFollow {
		flags |= unix.O_NOFOLLOW
	}
	var fd int
	var err error
	for {
		fd, err = unix.Open(path, flags, 0)
		if err != unix.EINTR {
			break
		}
	}
	if err == unix.ELOOP && o.NoFollow {
		// O_NOFOLLOW's answer for a symbolic link.
		return nil, &KindError{Path: path, Mode: fs.ModeSymlink}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "fstat", Path: path, Err: err}
	}
	if err := accept(path, modeOf(st.Mode), o); err != nil {
		unix.Close(fd)
		return nil, err
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "fcntl", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// modeOf keeps the type bits of a stat mode.
func modeOf(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
