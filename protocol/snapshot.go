package protocol

type SnapshotInfo struct {
	ID           string   `json:"id"`
	Root         string   `json:"root"`
	Time         int64    `json:"time"` // unix ms
	SessionID    string   `json:"sessionId"`
	Turn         int      `json:"turn"`
	Message      string   `json:"message"`
	Reason       string   `json:"reason,omitempty"`
	ChangedFiles int      `json:"changedFiles"`
	Skipped      []string `json:"skipped,omitempty"`
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
	Kind string `json:"kind"` // modified|recreated|deleted
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
	// UndoID is the snapshot taken just before restoring.
	UndoID string `json:"undoId"`
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
