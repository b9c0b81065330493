package store

import (
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrNotFound is wrapped by every error about a missing session, message,
// tool call or confirmation.
var ErrNotFound = errors.New("not found")

// ErrInvalid is wrapped by every error about a bad argument or document; such
// calls write nothing.
var ErrInvalid = errors.New("invalid input")

// ErrRunningElsewhere is returned by BeginTurn when another process that
// still runs (another editor window on the workspace) has a turn of the
// session in progress: two runs in one session would interleave its model
// track.
var ErrRunningElsewhere = errors.New("the session runs a turn in another window")

// ErrWriterClosed is returned by a StreamWriter used after Finalize.
var ErrWriterClosed = errors.New("stream writer already finalized")

// CorruptError says the database file at Path could not be used because it
// is damaged or is not a SQLite database. When Open recovers from it,
// MovedTo names where the damaged file was moved (its -wal and -shm files
// get the same name plus their suffix) and At when that happened.
type CorruptError struct {
	Path    string
	MovedTo string
	At      time.Time
	Err     error
}

func (e *CorruptError) Error() string {
	if e.MovedTo != "" {
		return fmt.Sprintf("conversation database %s is corrupt (%v); moved to %s and started a fresh database", e.Path, e.Err, e.MovedTo)
	}
	return fmt.Sprintf("conversation database %s is corrupt: %v", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// UnreadableError says the database file at Path exists but this process may
// not read or write it (permissions, a directory in its place, a read-only
// file system). The file is left untouched: it is not damaged, and moving it
// aside would hide the user's history.
type UnreadableError struct {
	Path string
	Err  error
}

func (e *UnreadableError) Error() string {
	return fmt.Sprintf("conversation database %s cannot be opened: %v", e.Path, e.Err)
}

func (e *UnreadableError) Unwrap() error { return e.Err }

// VersionError says the database was written by a newer GoVibe whose schema
// this binary does not know. The file is left untouched.
type VersionError struct {
	Path          string
	FileVersion   int
	KnownVersions int
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("conversation database %s has schema version %d but this GoVibe knows only up to %d; upgrade GoVibe", e.Path, e.FileVersion, e.KnownVersions)
}

// sqliteCode returns the primary SQLite result code carried by err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		// Extended result codes are on; the primary code is the low byte.
		return se.Code() & 0xff
	}
	return 0
}

func isCorruption(err error) bool {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

func isAccessProblem(err error) bool {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_AUTH:
		return true
	}
	return false
}

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

func notFoundf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrNotFound}, args...)...)
}
