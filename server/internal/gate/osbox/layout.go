package osbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/govibe/govibe/server/internal/util/skipdirs"
)

// Bounds on the search for secret files in a root: the walk runs before
// every sandboxed command, so it is capped in entries and depth, skips
// dependency and VCS folders, and its answer is reused for a few seconds.
const (
	maxScanEntries = 50000
	maxScanDepth   = 12
	scanTTL        = 3 * time.Second
)

// IsSecretFile reports whether a file in a workspace holds secrets by
// name: .env and its variants (.env.local, .env.production, …).
func IsSecretFile(name string) bool {
	return name == ".env" || strings.HasPrefix(name, ".env.")
}

type scanEntry struct {
	at      time.Time
	secrets []string
}

var scanCache sync.Map // root → scanEntry

// rootSecrets lists the secret files under root (absolute paths).
func rootSecrets(root string) []string {
	if v, ok := scanCache.Load(root); ok {
		if e := v.(scanEntry); time.Since(e.at) < scanTTL {
			return e.secrets
		}
	}
	var out []string
	n := 0
	base := strings.Count(root, string(filepath.Separator))
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		n++
		if n > maxScanEntries {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if p != root && (skipdirs.NotOwnCode(d.Name()) || strings.Count(p, string(filepath.Separator))-base > maxScanDepth) {
				return filepath.SkipDir
			}
			return nil
		}
		// Only regular files and links to them: a FIFO named .env is not
		// opened by anyone here, and masking it with a file is still right.
		if IsSecretFile(d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	scanCache.Store(root, scanEntry{at: time.Now(), secrets: out})
	return out
}

// protectedIn returns the protected paths of root that exist, and those
// that do not (created by a command, they are removed after it: see
// Sweep).
func protectedIn(root string, gitWrite bool) (existing, missing []string) {
	for _, name := range protectedNames {
		if gitWrite && name == ".git" {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(name))
		if _, err := os.Lstat(p); err == nil {
			existing = append(existing, p)
		} else {
			missing = append(missing, p)
		}
	}
	return existing, missing
}

// Sweep removes the protected paths in missing that a command created
// although it may not: every process of the sandbox is gone by then (its
// PID namespace died with it), so nothing can use them before they go.
// It returns what it removed.
func Sweep(missing []string) []string {
	var removed []string
	for _, p := range missing {
		if _, err := os.Lstat(p); err == nil {
			if os.RemoveAll(p) == nil {
				removed = append(removed, p)
			}
		}
	}
	return removed
}
