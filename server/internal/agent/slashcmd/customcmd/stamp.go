package customcmd

import (
	"hash/fnv"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
)

// maxStampEntries bounds the walk: a command folder holding more than this
// is cut off at the same place Load stops caring (maxCommands files), plus
// room for folders.
const maxStampEntries = 4 * maxCommands

// Stamp fingerprints the command folders: every file's path, size and
// modification time, and which folders exist. It is cheap (a few stats in
// the usual folder of a dozen files), so callers compute it on every use
// and reload when it changed; a command file added, edited or removed
// during a session is then seen at the next keystroke of the autocomplete
// or the next message, with no watcher to miss an event or a restart to
// ask for.
func Stamp(dirs []Dir) string {
	h := fnv.New64a()
	n := 0
	for _, d := range dirs {
		h.Write([]byte(d.Path))
		h.Write([]byte{0})
		root, err := filepath.EvalSymlinks(d.Path)
		if err != nil {
			h.Write([]byte("-\x00"))
			continue
		}
		_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if n++; n > maxStampEntries {
				return fs.SkipAll
			}
			if e.IsDir() && p != root && strings.HasPrefix(e.Name(), ".") {
				return fs.SkipDir
			}
			h.Write([]byte(p))
			if e.IsDir() {
				// A folder counts by its name; its own times change with
				// every file and say nothing the files do not.
				h.Write([]byte("/\x00"))
				return nil
			}
			if fi, err := e.Info(); err == nil {
				h.Write([]byte("\x00" + strconv.FormatInt(fi.Size(), 10) + "\x00" + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + "\x00"))
			}
			return nil
		})
	}
	return strconv.FormatUint(h.Sum64(), 36)
}
