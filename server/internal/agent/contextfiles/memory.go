package contextfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// MemoryDir is the project memory's folder inside a root.
const MemoryDir = ".govibe/memory/"

// memoryLevels are the project memory's files, in reading order.
var memoryLevels = []string{"README.md", "L1-purpose.md", "L2-inventory.md", "L3-roles.md"}

// MemoryPointer is the one line that tells the model a root has project
// memory and where, as a context file named after the folder: nothing of
// the levels themselves is sent; the model reads them on demand. Its hash
// follows which levels exist, not their contents, so keeping the
// inventory true does not send a change notice after every edit.
func MemoryPointer(root string) (File, bool) {
	var have []string
	for _, n := range memoryLevels {
		if st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(MemoryDir), n)); err == nil && st.Mode().IsRegular() {
			have = append(have, n)
		}
	}
	if len(have) == 0 {
		return File{}, false
	}
	line := "Project memory is in " + MemoryDir + " (" + strings.Join(have, ", ") +
		"): README.md has the rules of each level, L1 the purpose, L2 one line per file, L3 the roles. Read a level with read_file when it would help; keep L2 true when files are added or removed."
	sum := sha256.Sum256([]byte(line))
	return File{Root: root, Rel: MemoryDir, Content: line, Hash: hex.EncodeToString(sum[:8])}, true
}
