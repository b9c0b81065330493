package snapshot

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/util/fsatomic"
)

// The restore log records which snapshot each restore wrote into the
// workspace, and when. A restore is GoVibe writing files just as a turn
// is, so what it wrote counts as seen (see seenAfter): undoing a restore
// removes the files that restore brought back. It is a small text file in
// the shadow repository, one "<unix nanoseconds> <snapshot id>" per line,
// newest last, bounded to restoreLogMax lines.
const restoreLogMax = 200

type restoreRecord struct {
	time time.Time
	id   string
}

func (s *Store) restoreLogPath() string { return filepath.Join(s.dir, "govibe-restores") }

func (s *Store) readRestoreLog() []restoreRecord {
	data, err := os.ReadFile(s.restoreLogPath())
	if err != nil {
		return nil
	}
	var out []restoreRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		ts, id, ok := strings.Cut(sc.Text(), " ")
		n, err := strconv.ParseInt(ts, 10, 64)
		if !ok || err != nil || len(id) != 40 {
			continue // a damaged line only loses evidence: files are kept
		}
		out = append(out, restoreRecord{time: time.Unix(0, n), id: id})
	}
	return out
}

// logRestore appends a record; failing to write it only makes a later undo
// keep (and report) files it could have removed, so it is not an error.
func (s *Store) logRestore(id string, at time.Time) {
	s.writeRestoreLog(append(s.readRestoreLog(), restoreRecord{time: at, id: id}))
}

// writeRestoreLog keeps the newest restoreLogMax of recs, oldest first.
func (s *Store) writeRestoreLog(recs []restoreRecord) {
	if len(recs) > restoreLogMax {
		recs = recs[len(recs)-restoreLogMax:]
	}
	var b strings.Builder
	for _, r := range recs {
		b.WriteString(strconv.FormatInt(r.time.UnixNano(), 10))
		b.WriteByte(' ')
		b.WriteString(r.id)
		b.WriteByte('\n')
	}
	_ = fsatomic.WriteFile(s.restoreLogPath(), []byte(b.String()), 0o644)
}
