package approval

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"io/fs"
	"path/filepath"
	"strconv"

	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/util/skipdirs"
)

const (
	// repeatLimit is how many identical runs over an unchanged workspace
	// are allowed; the next one is refused.
	repeatLimit = 2
	// maxRunsKept bounds the history kept per session.
	maxRunsKept = 32
	// maxFingerprintEntries bounds the walk; beyond it the workspace is
	// "unknown" and nothing is refused.
	maxFingerprintEntries = 50000
)

// shellRun is one approved command and the workspace it ran over.
type shellRun = sessionstate.ShellRun

// fingerprintSkip are directories whose churn is not progress: VCS
// metadata and dependency trees.
// Both come from skipdirs, the one shared list.
func fingerprintSkip(name string) bool { return skipdirs.IsVCS(name) || skipdirs.IsGenerated(name) }

// workspaceFingerprint hashes every path, size and modification time under
// the roots. It only stats (no reads), so it stays cheap; "" means the
// workspace was too large or unreadable to tell.
func workspaceFingerprint(roots []string) string {
	h := fnv.New64a()
	n := 0
	var buf [16]byte
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && p != root && fingerprintSkip(d.Name()) {
				return filepath.SkipDir
			}
			if n++; n > maxFingerprintEntries {
				return filepath.SkipAll
			}
			h.Write([]byte(p))
			if d.IsDir() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			binary.LittleEndian.PutUint64(buf[:8], uint64(info.Size()))
			binary.LittleEndian.PutUint64(buf[8:], uint64(info.ModTime().UnixNano()))
			h.Write(buf[:])
			return nil
		})
		if err != nil || n > maxFingerprintEntries {
			return ""
		}
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

func runKey(cwd, command string) string { return cwd + "\x00" + command }

// repeated reports whether command already ran repeatLimit times in cwd
// with the workspace as it is now, and with no change in between.
func (e *Approvals) repeated(ctx context.Context, sid, cwd, command, fp string) bool {
	if fp == "" {
		return false
	}
	runs := e.shellRuns(ctx, sid)
	key, same := runKey(cwd, command), 0
	for i := len(runs) - 1; i >= 0 && runs[i].FP == fp; i-- {
		if runs[i].Key == key {
			same++
		}
	}
	return same >= repeatLimit
}

// recordRun remembers an approved command with the workspace it runs over.
func (e *Approvals) recordRun(ctx context.Context, sid, cwd, command, fp string) {
	runs := append(e.shellRuns(ctx, sid), shellRun{Key: runKey(cwd, command), FP: fp})
	if len(runs) > maxRunsKept {
		runs = runs[len(runs)-maxRunsKept:]
	}
	_ = sessionstate.Set(ctx, e.store, sid, sessionstate.ShellRuns, runs)
}

func (e *Approvals) shellRuns(ctx context.Context, sid string) []shellRun {
	return sessionstate.Lookup(ctx, e.store, sid, sessionstate.ShellRuns)
}
