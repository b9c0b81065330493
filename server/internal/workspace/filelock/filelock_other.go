//go:build !unix && !windows

package filelock

import "os"

// Without a file-locking primitive every lock is granted at once: only
// in-process mutexes order the callers, and no process looks alive to
// another (Supported is false).
func Lock(*os.File) error { return nil }

// TryLock always succeeds here.
func TryLock(*os.File) (bool, error) { return true, nil }

// Unlock does nothing here.
func Unlock(*os.File) error { return nil }

// Supported reports whether locks exclude other processes here.
const Supported = false
