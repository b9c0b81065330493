package slashcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// fakeHost records what the commands ask of the engine; the store is real.
type fakeHost struct {
	st *store.Store

	mu        sync.Mutex
	notices   []string
	finished  []string // "sid job context?"
	snaps     []Snapshot
	restored  []string
	busy      bool
	compacted []string
}

func (h *fakeHost) CreateSession(ctx context.Context) (string, error) {
	s, err := h.st.CreateSession(ctx, store.NewSession{Kind: store.KindChat})
	return s.ID, err
}
func (h *fakeHost) RecentSessions(ctx context.Context, limit int) ([]store.Session, error) {
	return nil, nil
}
func (h *fakeHost) Idle(string) error {
	if h.busy {
		return errors.New("busy")
	}
	return nil
}
func (h *fakeHost) PublishNotice(sid, job string, m store.Message, text string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.notices = append(h.notices, text)
}
func (h *fakeHost) PublishFinished(_ context.Context, sid, job string, withContext bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.finished = append(h.finished, fmt.Sprintf("%s %v", sid, withContext))
}
func (h *fakeHost) StartCompaction(_ context.Context, sid string) (string, error) {
	h.compacted = append(h.compacted, sid)
	return "job-" + sid, nil
}
func (h *fakeHost) SessionModel(context.Context, string) string { return "m1" }
func (h *fakeHost) Snapshots(string) ([]Snapshot, error)        { return h.snaps, nil }
func (h *fakeHost) Restore(_ context.Context, id string) error {
	h.restored = append(h.restored, id)
	return nil
}
func (h *fakeHost) Usage(context.Context, string) usage.Session { return usage.Session{Requests: 2} }
func (h *fakeHost) Tr(msg string, args ...any) string           { return fmt.Sprintf(msg, args...) }

type fixture struct {
	h         *fakeHost
	c         *Commands
	home, ws  string
	trusted   bool
	noticesMu sync.Mutex
	global    []string // Options.Notice
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "s.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{h: &fakeHost{st: st}, home: t.TempDir(), ws: t.TempDir()}
	f.c = New(f.h, st, Options{Home: f.home, Roots: []string{f.ws},
		Trusted: func() bool { return f.trusted },
		Notice: func(level, msg string) {
			f.noticesMu.Lock()
			defer f.noticesMu.Unlock()
			f.global = append(f.global, level+": "+msg)
		}})
	return f
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func names(c *Commands) string {
	var out []string
	for _, x := range c.List() {
		out = append(out, x.Name)
	}
	return strings.Join(out, " ")
}

// A command file added, edited and removed between two messages is seen
// by the next one, with no reset.
func TestCustomCommandsFollowTheirFolder(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, matched, _ := f.c.Run(ctx, Params{}, "/greet you"); matched {
		t.Fatal("/greet matched before its file exists")
	}
	file := filepath.Join(f.home, ".govibe", "commands", "greet.md")
	write(t, file, "Say hello to $ARGUMENTS.")
	out, matched, err := f.c.Run(ctx, Params{}, "/greet you")
	if !matched || err != nil || out.Text != "Say hello to you." {
		t.Fatalf("after adding: matched %v err %v text %q", matched, err, out.Text)
	}
	write(t, file, "---\nmodel: small\nallowedTools: [Read]\n---\nWave at $ARGUMENTS, warmly.")
	out, _, _ = f.c.Run(ctx, Params{}, "/greet you")
	if out.Text != "Wave at you, warmly." || out.Model != "small" || len(out.Allowed) != 1 {
		t.Fatalf("after editing: %+v", out)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if _, matched, _ := f.c.Run(ctx, Params{}, "/greet you"); matched {
		t.Fatal("/greet still matched after its file was removed")
	}
}

// Project commands load only once the workspace is trusted (Reset), and a
// project file replacing a built-in is reported once, however many
// callers load at the same time.
func TestProjectCommandsFollowTrustAndConflictsAreReportedOnce(t *testing.T) {
	f := newFixture(t)
	write(t, filepath.Join(f.ws, ".govibe", "commands", "cost.md"), "Estimate the cost of $ARGUMENTS.")
	write(t, filepath.Join(f.ws, ".govibe", "commands", "bad name!.md"), "x")
	out, _, _ := f.c.Run(context.Background(), Params{}, "/cost")
	if !out.Handled {
		t.Fatalf("untrusted: /cost is not the built-in: %+v", out)
	}
	f.trusted = true
	f.c.Reset()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); f.c.List() }()
	}
	wg.Wait()
	out, _, _ = f.c.Run(context.Background(), Params{}, "/cost the plan")
	if out.Handled || out.Text != "Estimate the cost of the plan." {
		t.Fatalf("trusted: /cost is not the project's: %+v", out)
	}
	var conflicts, problems int
	for _, n := range f.global {
		switch {
		case strings.HasPrefix(n, "info: Command conflict:"):
			conflicts++
		case strings.HasPrefix(n, "warning: Command not loaded:"):
			problems++
		}
	}
	if conflicts != 1 || problems != 1 {
		t.Fatalf("notices %q: want one conflict and one problem", f.global)
	}
}

func TestHelpListsCustomAndBuiltinCommands(t *testing.T) {
	f := newFixture(t)
	write(t, filepath.Join(f.home, ".govibe", "commands", "greet.md"), "---\ndescription: Greets\n---\nhi")
	if got := names(f.c); !strings.Contains(got, "greet") || !strings.Contains(got, "help") || !strings.Contains(got, "undo") {
		t.Fatalf("List: %s", got)
	}
	out, _, err := f.c.Run(context.Background(), Params{}, "/help")
	if err != nil || !out.Handled || out.SessionID == "" {
		t.Fatalf("/help: %+v %v", out, err)
	}
	if len(f.h.notices) != 1 || !strings.Contains(f.h.notices[0], "/greet [arguments] — Greets") {
		t.Fatalf("help text %q", f.h.notices)
	}
	if len(f.h.finished) != 1 || !strings.HasSuffix(f.h.finished[0], "true") {
		t.Fatalf("finished %q: want one turnFinished carrying the context", f.h.finished)
	}
}

// Bad arguments are refused with a message naming what is accepted, and
// nothing is answered in the chat.
func TestBadArgumentsAreRefused(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for text, want := range map[string]string{
		"/spec frobnicate": "/spec needs a step",
		"/spec":            "/spec needs a step",
		"/undo":            "/undo needs a session",
		"/compact":         "/compact needs a session",
	} {
		_, matched, err := f.c.Run(ctx, Params{}, text)
		if !matched || err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: matched %v err %v, want %q", text, matched, err, want)
		}
	}
	if _, matched, _ := f.c.Run(ctx, Params{}, "/compact now"); matched {
		t.Error("/compact takes no arguments but matched with one")
	}
	if len(f.h.notices) != 0 {
		t.Fatalf("refusals answered in the chat: %q", f.h.notices)
	}
}

func TestSpecAndBTWBecomeTheTurnsText(t *testing.T) {
	f := newFixture(t)
	out, _, err := f.c.Run(context.Background(), Params{}, "/spec Apply add-login")
	if err != nil || out.Handled || !strings.Contains(out.Text, "follow its apply step. Apply the change, working through its tasks.md, for add-login") {
		t.Fatalf("/spec: %+v %v", out, err)
	}
	out, _, _ = f.c.Run(context.Background(), Params{}, `\btw why?`)
	if !out.BTW || out.Text != "why?" {
		t.Fatalf("btw: %+v", out)
	}
	if ok, rest := f.c.ParseBTW("/btw  and this"); !ok || rest != "and this" {
		t.Fatalf("ParseBTW: %v %q", ok, rest)
	}
	if ok, rest := f.c.ParseBTW("plain"); ok || rest != "plain" {
		t.Fatalf("ParseBTW plain: %v %q", ok, rest)
	}
}

// /undo restores every root's before-turn snapshot of the latest turn
// that has one, and only those.
func TestUndoRestoresTheLatestTurnInEachRoot(t *testing.T) {
	f := newFixture(t)
	sid, _ := f.h.CreateSession(context.Background())
	f.h.snaps = []Snapshot{ // newest first
		{ID: "a7", Root: "/a", Reason: "after turn", Turn: 7},
		{ID: "b7", Root: "/b", Reason: "before turn", Turn: 7},
		{ID: "a6", Root: "/a", Reason: "before turn", Turn: 6},
		{ID: "a7x", Root: "/a", Reason: "before turn", Turn: 7},
		{ID: "b5", Root: "/b", Reason: "before turn", Turn: 5},
	}
	out, _, err := f.c.Run(context.Background(), Params{SessionID: sid}, "/undo")
	if err != nil || !out.Handled {
		t.Fatalf("/undo: %+v %v", out, err)
	}
	if strings.Join(f.h.restored, " ") != "b7 a7x" {
		t.Fatalf("restored %v, want b7 a7x", f.h.restored)
	}
	if f.h.notices[0] != "Restored the workspace to before turn 7." {
		t.Fatalf("answer %q", f.h.notices[0])
	}
	f.h.snaps, f.h.restored = nil, nil
	f.c.Run(context.Background(), Params{SessionID: sid}, "/undo")
	if len(f.h.restored) != 0 || f.h.notices[1] != "Nothing to undo: no turn of this session changed files." {
		t.Fatalf("nothing to undo: restored %v, answer %q", f.h.restored, f.h.notices[1])
	}
}

// /clear refuses a session that is running and empties the model track
// otherwise.
func TestClearRefusesARunningSession(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sid, _ := f.h.CreateSession(ctx)
	f.h.busy = true
	if _, _, err := f.c.Run(ctx, Params{SessionID: sid}, "/clear"); err == nil {
		t.Fatal("/clear of a running session was not refused")
	}
	if len(f.h.notices) != 0 {
		t.Fatalf("refused /clear answered: %q", f.h.notices)
	}
}
