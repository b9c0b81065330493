package snapshot

import (
	"io/fs"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/util/skipdirs"
)

// Defaults used when the corresponding Options field is zero.
const (
	DefaultMaxFileSize      = 10 << 20
	DefaultLooseObjectLimit = 2000
	DefaultPruneGrace       = time.Hour
	DefaultMaxAge           = 30 * 24 * time.Hour
	DefaultMaxCount         = 500
)

// DefaultSkipDirs are directory names never snapshotted, wherever they
// appear, because they hold dependencies, caches or build output that are
// large and can be regenerated. Users who keep source in such a folder can
// override the list with Options.SkipDirs.
// The list is skipdirs.Generated, shared with every other workspace walk.
var DefaultSkipDirs = skipdirs.Generated

// Options tune a Store. The zero value is ready to use.
type Options struct {
	// MaxFileSize is the largest file snapshotted; bigger files are skipped
	// and reported. Zero means DefaultMaxFileSize.
	MaxFileSize int64
	// SkipDirs replaces DefaultSkipDirs when non-nil (an empty, non-nil
	// slice disables the built-in list).
	SkipDirs []string
	// LooseObjectLimit is how many loose objects may accumulate before they
	// are packed in the background. Zero means DefaultLooseObjectLimit.
	LooseObjectLimit int
	// PruneGrace protects unreachable loose objects younger than this from
	// garbage collection, so that another process writing a snapshot into
	// the same store is never robbed of objects it just wrote. Zero means
	// DefaultPruneGrace; a negative value disables the grace period.
	PruneGrace time.Duration
	// Watch tracks changes with a file watcher (inotify, Linux only), so
	// that a snapshot lists only the directories that changed instead of
	// stat-ing every file. When the watcher cannot vouch for what changed
	// (starting, overflowed, unavailable) a scan is a full one.
	Watch bool
	// Logger receives the reasons for full scans; nil discards them.
	Logger *zap.Logger
}

// Meta describes why a snapshot is taken.
type Meta struct {
	SessionID string
	Turn      int
	// TurnID names the turn (its user message) a turn snapshot belongs to.
	TurnID string
	// Message is the user's message for the turn; only its first line is kept.
	Message string
	// Reason says what triggered the snapshot, e.g. "before write_file".
	Reason string
}

// Info describes one stored snapshot.
type Info struct {
	ID        string // full commit hash in the shadow repository
	Time      time.Time
	SessionID string
	Turn      int
	TurnID    string
	// Root is the workspace root this snapshot is of (its store's root).
	Root    string
	Message string
	Reason  string // one of the Reason* constants, or free text from older versions
	// ChangedFiles counts files that differ from the previous snapshot (all
	// files for the first one).
	ChangedFiles int
	// Skipped lists what was left out although the user's ignore rules did
	// not exclude it (at most maxSkippedListed entries; SkippedCount has the
	// total).
	Skipped      []Skipped
	SkippedCount int

	tree string // root tree hash, used to detect "nothing changed"
}

// Skipped is one path left out of a snapshot. Directories end in "/".
type Skipped struct {
	Path   string
	Reason string // one of the Skip* constants
}

// Reasons a path is left out of a snapshot.
const (
	SkipListed     = "skip-list"  // directory in the built-in skip list
	SkipTooLarge   = "too-large"  // file bigger than Options.MaxFileSize
	SkipUnreadable = "unreadable" // permission denied or vanished mid-read
	SkipSpecial    = "special"    // socket, fifo, device
)

// ChangeKind says what restoring a snapshot does to one path.
type ChangeKind string

const (
	// Modified: the path exists now and restoring rewrites its content or mode.
	Modified ChangeKind = "modified"
	// Recreated: the path is missing now and restoring creates it.
	Recreated ChangeKind = "recreated"
	// Deleted: the path was created after the snapshot and restoring removes it.
	Deleted ChangeKind = "deleted"
	// Kept: the snapshot has the path, but what is on disk now is not
	// snapshotted (ignored, skipped or too large), so restoring leaves it
	// alone rather than destroying content it could not bring back.
	Kept ChangeKind = "kept"
)

// Change is one path a restore touches (or, for Kept, refuses to touch).
type Change struct {
	Path string // slash-separated, relative to the workspace root
	Kind ChangeKind
	// Mode is the mode the path has in the snapshot (zero for Deleted).
	Mode fs.FileMode
	// Reason explains a Kept change or a failure to apply one.
	Reason string
}

// RestoreResult reports what a restore did.
type RestoreResult struct {
	// Before is the snapshot of the workspace taken just before restoring;
	// restoring it undoes the restore.
	Before Info
	// Changed lists the paths written or deleted, sorted by path.
	Changed []Change
	// Kept lists paths deliberately left untouched, sorted by path.
	Kept []Change
}
