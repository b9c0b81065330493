package protocol

// Why a snapshot was taken (SnapshotInfo.Reason).
const (
	SnapshotBeforeTurn = "before turn"
	SnapshotAfterTurn  = "after turn"
	SnapshotManual     = "manual"
	// SnapshotSafety is taken by every restore first, so it can be undone.
	SnapshotSafety = "before restore"
)

// SnapshotInfo is one snapshot of one workspace root.
type SnapshotInfo struct {
	ID   string `json:"id"`
	Root string `json:"root"`
	Time int64  `json:"time"` // unix ms
	// SessionID and TurnID name the session and turn (its user message id)
	// the snapshot was taken for; both are empty for a manual snapshot
	// without a session, TurnID for snapshots of older versions.
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId,omitempty"`
	Turn      int    `json:"turn"`
	// Message is the turn's user message (first line) or the manual
	// snapshot's description.
	Message string `json:"message"`
	Reason  string `json:"reason,omitempty"`
	// ChangedFiles counts files that differ from the store's previous
	// snapshot (every file for the first one of a root).
	ChangedFiles int      `json:"changedFiles"`
	Skipped      []string `json:"skipped,omitempty"`
}

// SnapshotRestoreTurnParams rolls the workspace back to before a turn.
// With DryRun nothing is changed and the result says what would be.
type SnapshotRestoreTurnParams struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	DryRun    bool   `json:"dryRun,omitempty"`
}

// RootRestore is what a turn restore did (or would do) to one root.
type RootRestore struct {
	Root       string       `json:"root"`
	SnapshotID string       `json:"snapshotId"`
	Changes    []FileChange `json:"changes"`
	// Kept lists files left as they are: the user's own work, ignored or
	// unsnapshotted files.
	Kept []FileChange `json:"kept,omitempty"`
	// UndoID is the safety snapshot taken before restoring this root
	// (empty in a dry run).
	UndoID string `json:"undoId,omitempty"`
}

type SnapshotRestoreTurnResult struct {
	Roots []RootRestore `json:"roots"`
	// Notice is the sentence put in the chat (empty in a dry run).
	Notice string `json:"notice,omitempty"`
}

type SnapshotListParams struct {
	SessionID string `json:"sessionId,omitempty"`
}

type SnapshotListResult struct {
	Snapshots []SnapshotInfo `json:"snapshots"`
	StoreSize int64          `json:"storeSize"`
}

type SnapshotDiffParams struct {
	ID string `json:"id"`
}

// FileChange is what restoring a snapshot would do to one file.
type FileChange struct {
	Path string `json:"path"`
	Kind string `json:"kind"` // modified|recreated|deleted|kept
	// Reason says why a kept file is left alone.
	Reason string `json:"reason,omitempty"`
}

type SnapshotDiffResult struct {
	Changes []FileChange `json:"changes"`
}

type SnapshotRestoreParams struct {
	ID string `json:"id"`
}

type SnapshotRestoreFileParams struct {
	ID   string `json:"id"`
	Path string `json:"path"`
}

type SnapshotRestoreResult struct {
	Changes []FileChange `json:"changes"`
	Kept    []FileChange `json:"kept,omitempty"`
	// UndoID is the snapshot taken just before restoring.
	UndoID string `json:"undoId"`
	// Notice is the sentence put in the snapshot's session.
	Notice string `json:"notice,omitempty"`
}

type SnapshotCreateParams struct {
	SessionID string `json:"sessionId,omitempty"`
	Message   string `json:"message,omitempty"`
}

type SnapshotCreateResult struct {
	Snapshot SnapshotInfo `json:"snapshot"`
	Created  bool         `json:"created"`
}

// SnapshotFileParams fetches one file's content at a snapshot, for the
// "Compare with current" diff.
type SnapshotFileParams struct {
	ID   string `json:"id"`
	Path string `json:"path"`
}

type SnapshotFileResult struct {
	Exists  bool   `json:"exists"`
	Content string `json:"content"`
	Binary  bool   `json:"binary"`
}
