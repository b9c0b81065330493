package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync/atomic"
)

// Open runs PRAGMA quick_check so that damage is found before a user's
// turn reads a broken page. quick_check reads every page: a 2 GB history
// (1M messages) took two minutes to open on a loaded machine. A database
// that this process closed cleanly, and that nothing has written since,
// needs no check: with WAL and synchronous=FULL its pages are what SQLite
// wrote. So Close leaves a marker naming the file's size and modification
// time once the WAL is checkpointed away, and Open checks a large database
// only when that marker is missing (a crash, a kill, another process still
// had it open) or no longer matches the file. Small databases are always
// checked: it costs milliseconds, and it keeps every path tested. The
// marker is removed at Open, so a crash after it forces the next check.

// alwaysCheckBelow is the database size under which Open always checks.
// It is small: the check's cost grows with history, and opening the editor
// on a long session waited for it (a 5,000-message session, 20 MB, took
// 0.3 to 2.6 s to check before the first page could be read; issue 33 §6).
// A variable so that tests can take the large-database path with a small file.
var alwaysCheckBelow int64 = 1 << 20

// quickChecks counts the checks run, for tests.
var quickChecks atomic.Int64

func cleanMarker(path string) string { return path + "-clean" }

// fileStamp names a database file's current content as far as a stat can:
// its size and modification time, and that no WAL holds more of it.
func fileStamp(path string) (string, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", false
	}
	if w, err := os.Stat(path + "-wal"); err == nil && w.Size() > 0 {
		return "", false
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	return fmt.Sprintf("%d %d", fi.Size(), fi.ModTime().UnixNano()), true
}

// needsCheck says whether Open must run quick_check on path, and removes the
// clean-close marker either way.
func needsCheck(path string) bool {
	marker, err := os.ReadFile(cleanMarker(path))
	_ = os.Remove(cleanMarker(path))
	fi, statErr := os.Stat(path)
	if statErr != nil || fi.Size() < alwaysCheckBelow || err != nil {
		return true
	}
	stamp, ok := fileStamp(path)
	return !ok || strings.TrimSpace(string(marker)) != stamp
}

// markCleanClose records that path was closed cleanly, if its WAL is gone.
// A marker that fails to be written only costs the next Open a check.
func markCleanClose(path string) {
	if stamp, ok := fileStamp(path); ok {
		_ = os.WriteFile(cleanMarker(path), []byte(stamp+"\n"), 0o644)
	}
}
