package approval

import (
	"os"
	"path/filepath"
	"strings"
)

// Project memory is created by /init or on first use once the user
// agrees (issue #18). Its later edits are ordinary ones, but the write
// that would create it is the user's decision: in the editor it always
// asks, whatever auto-approval or allow rule would let an edit through,
// like a protected file. Headless, --approve edits (which /init needs
// anyway) is that decision made in advance.

// createsMemory reports whether the proposal would create the project
// memory: a new file under .govibe/memory/ of a root whose memory folder
// holds no file yet (it is missing, or empty).
func createsMemory(rel, abs string, isNew bool) bool {
	rel = cleanRel(rel)
	if !isNew || !strings.HasPrefix(rel, memoryDir) {
		return false
	}
	dir := abs
	for range strings.Split(strings.TrimPrefix(rel, memoryDir), "/") {
		dir = filepath.Dir(dir)
	}
	return !holdsAFile(dir)
}

// holdsAFile is true when dir or a folder under it holds a regular file.
func holdsAFile(dir string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipAll
		}
		if d.Type().IsRegular() {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// memoryDeclined is what the model is told when the user declines the
// write that would create the project memory: nothing was created, and
// it should not try again unasked.
func memoryDeclined(reason string) string {
	note := "The user declined to create the project memory (.govibe/memory/); nothing was written. Do not create memory files again unless the user asks for them; carry on without project memory."
	if r := strings.TrimSpace(reason); r != "" {
		note += " The user's reason: " + r
	}
	return note
}
