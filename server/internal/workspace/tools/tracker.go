package tools

import (
	"context"
	"fmt"
	"hash/maphash"
	"sync"
)

// FileTracker remembers, per absolute path, what the model last saw of a
// file, so that edits based on an outdated view are refused instead of
// silently clobbering someone else's change.
//
// Line-number rule for several edits in one turn: line numbers in an edit
// always refer to the file as the model last read it (read_file or
// find_in_file) or wrote it whole (write_file). Earlier edits since that
// view are remembered in view coordinates and later edits are shifted by
// the lines they added or removed above them, so the model never has to
// renumber. An edit overlapping an earlier edit's range is refused; reading
// the file again starts a fresh view.
//
// All methods are safe for concurrent use. Lock serialises the
// check-then-write of one path across concurrent tool calls.
type FileTracker struct {
	mu    sync.Mutex
	seed  maphash.Seed
	files map[string]*fileState
	locks map[string]*sync.Mutex
	turns map[string]*sync.Once // BeforeMutation once per TurnID
}

type fileState struct {
	hash      uint64 // of the full content the model last saw or wrote
	readTurn  bool   // read (or written) since the last user message
	viewLines int    // line count of the view line numbers refer to
	edits     []viewEdit
}

// viewEdit is an applied edit in view coordinates: it replaced view lines
// start..end (end = start-1 for an insertion) with added lines.
type viewEdit struct {
	start, end, added int
}

// NewFileTracker returns an empty tracker.
func NewFileTracker() *FileTracker {
	return &FileTracker{
		seed:  maphash.MakeSeed(),
		files: map[string]*fileState{},
		locks: map[string]*sync.Mutex{},
		turns: map[string]*sync.Once{},
	}
}

// ResetTurn is called on every user message: files must be read again
// before they can be edited.
func (t *FileTracker) ResetTurn() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, st := range t.files {
		st.readTurn = false
	}
	t.turns = map[string]*sync.Once{}
}

func (t *FileTracker) sum(content []byte) uint64 { return maphash.Bytes(t.seed, content) }

// RecordRead notes that the model has seen path with this full content; it
// starts a new view for line numbers.
func (t *FileTracker) RecordRead(path string, content []byte) {
	t.setView(path, content)
}

// RecordWrite notes that the model wrote path whole (write_file).
func (t *FileTracker) RecordWrite(path string, content []byte) {
	t.setView(path, content)
}

// Forget drops what is known about path (e.g. after a delete).
func (t *FileTracker) Forget(path string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.files, path)
}

// MustReread keeps the content hash but demands a fresh read before the
// next edit, used when the user changed a proposal so the model's view no
// longer matches the file.
func (t *FileTracker) MustReread(path string, content []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.files[path] = &fileState{hash: t.sum(content), viewLines: countLines(content)}
}

// ReadThisTurn reports whether the model read or wrote path since the last
// user message.
func (t *FileTracker) ReadThisTurn(path string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.files[path]
	return st != nil && st.readTurn
}

func (t *FileTracker) setView(path string, content []byte) {
	h := t.sum(content)
	n := countLines(content)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.files[path] = &fileState{hash: h, readTurn: true, viewLines: n}
}

// Lock serialises mutations of one path; call the returned func to unlock.
func (t *FileTracker) Lock(path string) func() {
	t.mu.Lock()
	l := t.locks[path]
	if l == nil {
		l = &sync.Mutex{}
		t.locks[path] = l
	}
	t.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// Unchanged reports whether content is what the model last saw of path.
func (t *FileTracker) Unchanged(path string, content []byte) bool {
	h := t.sum(content)
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.files[path]
	return st != nil && st.hash == h
}

// planEdit maps an edit given in view coordinates to the current file.
// It returns the current start line, or a refusal for the model.
func (t *FileTracker) planEdit(path string, start, end int) (int, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.files[path]
	if st == nil {
		return 0, "no view of the file"
	}
	if start < 1 || end < start-1 {
		return 0, fmt.Sprintf("invalid range startLine=%d endLine=%d: need startLine ≥ 1 and endLine ≥ startLine−1 (endLine = startLine−1 inserts before startLine)", start, end)
	}
	if end > st.viewLines || start > st.viewLines+1 {
		return 0, fmt.Sprintf("lines %d–%d are past the end of the file, which had %d lines when you read it (to append, use startLine=%d endLine=%d)", start, end, st.viewLines, st.viewLines+1, st.viewLines)
	}
	shift := 0
	for _, e := range st.edits {
		if overlaps(e, start, end) {
			return 0, fmt.Sprintf("lines %d–%d overlap your earlier edit of lines %s in this view of the file; line numbers refer to the file as you last read it, so re-read the file with read_file and edit again with fresh line numbers", start, end, rangeText(e.start, e.end))
		}
		if e.end < start || (e.end == e.start-1 && e.start <= start) {
			shift += e.added - (e.end - e.start + 1)
		}
	}
	return start + shift, ""
}

// commitEdit records an applied edit and the new content the model now
// implicitly knows.
func (t *FileTracker) commitEdit(path string, start, end, added int, content []byte) {
	h := t.sum(content)
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.files[path]
	if st == nil {
		st = &fileState{readTurn: true}
		t.files[path] = st
	}
	st.hash = h
	st.edits = append(st.edits, viewEdit{start: start, end: end, added: added})
}

// beginMutation runs fn once per turn id; concurrent callers wait for the
// first to finish, so no mutation precedes the snapshot.
func (t *FileTracker) beginMutation(ctx context.Context, turn string, fn func(context.Context)) {
	if fn == nil {
		return
	}
	t.mu.Lock()
	o := t.turns[turn]
	if o == nil {
		o = &sync.Once{}
		t.turns[turn] = o
	}
	t.mu.Unlock()
	o.Do(func() { fn(ctx) })
}

// overlaps reports whether a new edit of view lines start..end conflicts
// with an earlier edit e. Ranges are half-open line intervals [s, end+1);
// an insertion is the empty interval at its start line and conflicts only
// with a replacement strictly around its insertion point.
func overlaps(e viewEdit, start, end int) bool {
	a1, b1 := e.start, e.end+1
	a2, b2 := start, end+1
	empty1, empty2 := a1 == b1, a2 == b2
	switch {
	case empty1 && empty2:
		return false
	case empty1:
		return a2 < a1 && a1 < b2
	case empty2:
		return a1 < a2 && a2 < b1
	}
	return a1 < b2 && a2 < b1
}

func rangeText(s, e int) string {
	if e < s {
		return fmt.Sprintf("(insertion before line %d)", s)
	}
	return fmt.Sprintf("%d–%d", s, e)
}

// Paths lists every file the model has read or written in the session
// (absolute paths, unordered): sub-folder context files attach once the
// agent works there.
func (t *FileTracker) Paths() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, 0, len(t.files))
	for p := range t.files {
		out = append(out, p)
	}
	return out
}
