package engine

import (
	"context"
	"os"
	"path/filepath"

	"go.uber.org/zap"
)

// mergeLegacy brings into this workspace's storage what each legacy
// storage folder (Options.LegacyStateDirs: the editor's per-window slots,
// where sessions lived before they belonged to the workspace) holds: its
// snapshots first, so the merged sessions' turns can be rolled back, then
// its workspace skills, then its sessions, which records the folder as
// merged (nothing is read from it again). A failure is told to the user
// and leaves the folder unrecorded, to be retried at the next start; the
// folder itself is never changed.
func (e *Engine) mergeLegacy(ctx context.Context) {
	for _, dir := range e.opts.LegacyStateDirs {
		if filepath.Clean(dir) == filepath.Clean(e.opts.StateDir) {
			continue
		}
		db := filepath.Join(dir, "sessions.db")
		if _, err := os.Stat(db); err != nil {
			continue
		}
		if done, err := e.Store.Merged(ctx, db); err != nil || done {
			continue
		}
		if n, err := e.Rollback.Import(dir); err != nil {
			e.log.Warn("importing the snapshots of an old storage folder", zap.String("dir", dir), zap.Int("imported", n), zap.Error(err))
			e.notices = append(e.notices, e.Tr("Some snapshots in %s could not be copied, so earlier turns of its chats may not roll back: %v", dir, err))
		}
		if err := e.Skills.AdoptWorkspaceSkills(dir); err != nil {
			e.log.Warn("adopting the workspace skills of an old storage folder", zap.String("dir", dir), zap.Error(err))
		}
		res, err := e.Store.MergeFrom(ctx, db)
		if err != nil {
			e.log.Warn("merging the chats of an old storage folder", zap.String("dir", dir), zap.Error(err))
			e.notices = append(e.notices, e.Tr("The chats in %s could not all be added to this workspace's history (GoVibe tries again at the next start): %v", dir, err))
			continue
		}
		e.log.Info("merged the chats of an old storage folder", zap.String("dir", dir), zap.Int("copied", res.Copied), zap.Int("present", res.Present))
	}
}
