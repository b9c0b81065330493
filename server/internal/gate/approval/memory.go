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
	if !isNew || !strings.HasPrefix(cleanRel(rel), memoryDir) {
		return false
	}
	return !holdsAFile(memoryFolder(rel, abs))
}

// memoryFolder is the absolute .govibe/memory folder a path under it
// (rel relative to its root, abs absolute) belongs to.
func memoryFolder(rel, abs string) string {
	dir := abs
	for range strings.Split(strings.TrimPrefix(cleanRel(rel), memoryDir), "/") {
		dir = filepath.Dir(dir)
	}
	return dir
}

// memoryNotice is the line the confirmation card of the write that
// creates the project memory shows, so it does not pass for any new file:
// what is being created, and where.
func memoryNotice(tr func(string, ...any) string, rel, abs string) string {
	return tr("This creates the project memory in %s: GoVibe's notes about this project (purpose, file inventory, roles), which it reads on demand in later sessions.",
		memoryFolder(rel, abs)+string(filepath.Separator))
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
