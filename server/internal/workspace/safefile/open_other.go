//go:build !unix

package safefile

import (
	"errors"
	"os"
)

var errIsDir = errors.New("is a directory")

// openChecked opens path read-only and checks the kind on the opened
// file. There are no FIFOs in the file system on these platforms.
func openChecked(path string, o Options) (*os.File, error) {
	if o.NoFollow {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("is a symbolic link")}
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = accept(path, fi.Mode().Type(), o)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
