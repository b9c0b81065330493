package sessions

import (
	"context"
	"os"
	"path/filepath"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/storage/store"
)

// LegacyDeps is what merging old storage folders touches: the store the
// sessions go into, the snapshot stores of every root, and the skills the
// folder kept for the workspace.
type LegacyDeps struct {
	Store interface {
		Merged(ctx context.Context, src string) (bool, error)
		MergeFrom(ctx context.Context, src string) (store.MergeResult, error)
	}
	Snapshots interface{ Import(dir string) (int, error) }
	Skills    interface{ AdoptWorkspaceSkills(dir string) error }
	// Tr words a notice in the user's language (printf-style).
	Tr  func(format string, args ...any) string
	Log *zap.Logger
}

// MergeLegacy brings into this workspace's storage (stateDir) what each
// legacy storage folder holds (the editor's per-window slots, where
// sessions lived before they belonged to the workspace): its snapshots
// first, so the merged sessions' turns can be rolled back, then its
// workspace skills, then its sessions, which records the folder as merged
// (nothing is read from it again). A failure is returned as a notice for
// the user and leaves the folder unrecorded, to be retried at the next
// start; the folder itself is never changed.
func MergeLegacy(ctx context.Context, d LegacyDeps, stateDir string, dirs []string) (notices []string) {
	for _, dir := range dirs {
		if filepath.Clean(dir) == filepath.Clean(stateDir) {
			continue
		}
		db := filepath.Join(dir, "sessions.db")
		if _, err := os.Stat(db); err != nil {
			continue
		}
		if done, err := d.Store.Merged(ctx, db); err != nil || done {
			continue
		}
		if n, err := d.Snapshots.Import(dir); err != nil {
			d.Log.Warn("importing the snapshots of an old storage folder", zap.String("dir", dir), zap.Int("imported", n), zap.Error(err))
			notices = append(notices, d.Tr("Some snapshots in %s could not be copied, so earlier turns of its chats may not roll back: %v", dir, err))
		}
		if err := d.Skills.AdoptWorkspaceSkills(dir); err != nil {
			d.Log.Warn("adopting the workspace skills of an old storage folder", zap.String("dir", dir), zap.Error(err))
		}
		res, err := d.Store.MergeFrom(ctx, db)
		if err != nil {
			d.Log.Warn("merging the chats of an old storage folder", zap.String("dir", dir), zap.Error(err))
			notices = append(notices, d.Tr("The chats in %s could not all be added to this workspace's history (GoVibe tries again at the next start): %v", dir, err))
			continue
		}
		d.Log.Info("merged the chats of an old storage folder", zap.String("dir", dir), zap.Int("copied", res.Copied), zap.Int("present", res.Present))
	}
	return notices
}
