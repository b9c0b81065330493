// Package safefile opens and reads files whose kind nobody checked yet:
// paths a model or a person named inside the workspace, and entries a
// walker found. No file kind may block the caller or make it read without
// bound (issue 31): opening a named pipe for reading waits for a writer,
// and a character device such as /dev/zero never ends.
//
// Open checks the kind on the opened descriptor (fstat), not only on a
// stat before the open, so a file swapped for a FIFO in between is still
// refused; the open itself is non-blocking, so that swap cannot block it
// either. Reads are bounded before anything is allocated: the size comes
// from that fstat, and the read stops one byte past the limit.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is matched (errors.Is) by every *KindError.
var ErrNotRegular = errors.New("not a regular file")

// KindError refuses a path that is neither a regular file nor, where one
// is accepted, a directory. It was never read, nor opened for writing.
type KindError struct {
	Path string
	Mode fs.FileMode // the type bits found
}

func (e *KindError) Error() string { return e.Explain(e.Path) }

// Explain words the refusal with name in place of the path (a tool shows
// the path as the model wrote it, relative to the workspace).
func (e *KindError) Explain(name string) string {
	return fmt.Sprintf("%s is %s, not a regular file, and was left alone. %s", name, Kind(e.Mode), advice(e.Mode))
}

func (e *KindError) Is(target error) bool { return target == ErrNotRegular }

// Kind names a file type for a person or a model: "a named pipe (FIFO)",
// "a character device", "a block device", "a socket", "a symbolic link",
// "a directory", "a regular file", or "a special file" for anything else.
func Kind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t == 0:
		return "a regular file"
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeCharDevice != 0:
		return "a character device"
	case t&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}

// advice says why the kind is refused and what to do instead.
func advice(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeNamedPipe != 0:
		return "Reading a pipe waits for another process to write to it, and writing waits for a reader; use a regular file, or read the pipe from a shell command with a timeout."
	case t&fs.ModeCharDevice != 0, t&fs.ModeDevice != 0:
		return "A device can return endless data; copy what you need into a regular file first."
	case t&fs.ModeSocket != 0:
		return "A socket is talked to by a program, not read as a file."
	}
	return "Only regular files are read and written."
}

// TooLargeError refuses a file over the caller's limit. Nothing of it was
// allocated.
type TooLargeError struct {
	Path  string
	Size  int64 // what fstat reported, or at least Limit+1 when it grew
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than the %d-byte limit (%d bytes)", e.Path, e.Limit, e.Size)
}

// Options says what Open accepts.
type Options struct {
	// Dir accepts a directory too (its entries are read by the caller).
	Dir bool
	// NoFollow refuses a symbolic link as the last component instead of
	// following it: for a walker's entry, already known not to be a link,
	// so a link swapped in after the listing is not followed out of the
	// tree. The listing told the entry's kind, so no stat precedes the
	// open (the descriptor is checked all the same).
	NoFollow bool
}

// Open opens path for reading when it is a regular file (or a directory,
// with o.Dir), and returns the descriptor's own fstat. Anything else is a
// *KindError, found before the open where a stat can see it (so a device
// is not even opened) and again on the opened descriptor. The returned
// file is in blocking mode.
func Open(path string, o Options) (*os.File, fs.FileInfo, error) {
	if !o.NoFollow {
		if fi, err := os.Stat(path); err == nil {
			if err := accept(path, fi.Mode(), o); err != nil {
				return nil, nil, err
			}
		}
	}
	f, err := openChecked(path, o)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

func accept(path string, m fs.FileMode, o Options) error {
	if m.IsRegular() || (o.Dir && m.IsDir()) {
		return nil
	}
	if m.IsDir() {
		return &fs.PathError{Op: "read", Path: path, Err: errIsDir}
	}
	return &KindError{Path: path, Mode: m.Type()}
}

// ReadFile reads the regular file at path, following a symbolic link, and
// refuses it with *TooLargeError above limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	return readPath(path, limit, Options{})
}

// ReadEntry is ReadFile for a walker's entry: a symbolic link is refused.
func ReadEntry(path string, limit int64) ([]byte, error) {
	return readPath(path, limit, Options{NoFollow: true})
}

func readPath(path string, limit int64, o Options) ([]byte, error) {
	f, fi, err := Open(path, o)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, fi.Size(), limit)
}

// ReadPrefix reads at most n bytes from the start of the regular file at
// path (following a symbolic link): for callers that show a head and say
// the rest was cut.
func ReadPrefix(path string, n int64) ([]byte, error) {
	f, fi, err := Open(path, Options{})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readUpTo(f, fi.Size(), max(n, 0))
}

// ReadAll reads an opened regular file of the given fstat size, at most
// limit bytes: the size is checked before the buffer is allocated, and a
// file that grows past limit while it is read is refused rather than read
// on.
func ReadAll(f *os.File, size, limit int64) ([]byte, error) {
	limit = max(limit, 0)
	if size > limit {
		return nil, &TooLargeError{Path: f.Name(), Size: size, Limit: limit}
	}
	buf, err := readUpTo(f, size, limit+1)
	if err != nil {
		return nil, err
	}
	if int64(len(buf)) > limit {
		return nil, &TooLargeError{Path: f.Name(), Size: int64(len(buf)), Limit: limit}
	}
	return buf, nil
}

// readUpTo reads at most n bytes of f into a buffer sized from its fstat
// size (one byte of room past it sees EOF without growing the buffer).
func readUpTo(f *os.File, size, n int64) ([]byte, error) {
	buf := make([]byte, 0, min(max(size, 0)+1, n))
	r := io.LimitReader(f, n)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// CheckWritable refuses to replace or write through an existing path that
// is not a regular file (following symbolic links): writing a FIFO waits
// for a reader, and writing a device reaches the hardware. It never opens
// the path. A missing path is writable (it will be created).
func CheckWritable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if fi.Mode().IsRegular() {
		return nil
	}
	if fi.IsDir() {
		return &fs.PathError{Op: "write", Path: path, Err: errIsDir}
	}
	return &KindError{Path: path, Mode: fi.Mode().Type()}
}

// Special reports whether a directory entry's type is one no reader may
// open: anything but a regular file, a directory or a symbolic link (whose
// target is checked when it is opened). Walkers skip these by the type
// bits the listing already holds, without a stat.
func Special(t fs.FileMode) bool {
	t = t.Type()
	return t != 0 && t&(fs.ModeDir|fs.ModeSymlink) == 0
}
