package sessions

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// fakes records what the catalogue asked of its collaborators, in order.
type fakes struct {
	mu    sync.Mutex
	calls []string
	shown string
}

func (f *fakes) call(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
}

func (f *fakes) took() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

func (f *fakes) Model() string                                { return "m1" }
func (f *fakes) Running(string) string                        { return "" }
func (f *fakes) Shown(string) string                          { return f.shown }
func (f *fakes) Interrupted(string) bool                      { return true }
func (f *fakes) Settle(context.Context, string)               { f.call("settle") }
func (f *fakes) Flush(context.Context, string)                { f.call("flush") }
func (f *fakes) Cancel(string)                                { f.call("cancel") }
func (f *fakes) EditEnabled(context.Context, string) bool     { return false }
func (f *fakes) ContextChanged(context.Context, string)       { f.call("context") }
func (f *fakes) LastSeq(string) int64                         { f.call("lastSeq"); return 7 }
func (f *fakes) Forget(string)                                { f.call("forget") }
func (f *fakes) DeleteSession(string)                         { f.call("snapshots") }
func (f *fakes) Pending(string) []approval.Confirm            { return []approval.Confirm{{ID: "q1"}} }
func (f *fakes) Todo(context.Context, string) *scheduler.Plan { return &scheduler.Plan{} }
func (f *fakes) SessionStart(context.Context, string, string) { f.call("start") }

func (f *fakes) Fire(_ context.Context, _ string, in hooks.Input) hooks.Outcome {
	f.call("hook " + string(in.HookEventName))
	return hooks.Outcome{}
}

func (f *fakes) Of(context.Context, string) usage.Session {
	return usage.Session{Usage: llm.Usage{Cost: 0.5}}
}

func (f *fakes) OfSessions(_ context.Context, ids []string) (map[string]usage.Session, error) {
	out := map[string]usage.Session{}
	for _, id := range ids {
		out[id] = usage.Session{Usage: llm.Usage{Cost: 0.25}}
	}
	return out, nil
}

// newCatalog is a catalogue on a real store in a temporary folder.
func newCatalog(t *testing.T, roots ...string) (*Catalog, *fakes, *[]Summary, string) {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "sessions.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fakes{}
	var seen []Summary
	c := New(Deps{Store: st, Turns: f, Bus: f, Meter: f, Dialogs: f, Plans: f, Hooks: f, Snapshots: f},
		Options{Roots: roots, StateDir: dir, OnSession: func(s Summary) { seen = append(seen, s) }})
	return c, f, &seen, dir
}

// Opening a session settles what a closed window left in it; paging in
// older messages does not. The bus's last seq is read before the page.
func TestLoadSettlesOnlyWhenOpening(t *testing.T) {
	c, f, _, _ := newCatalog(t)
	ctx := context.Background()
	s, err := c.Create(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	f.shown = "turn1"
	l, err := c.Load(ctx, s.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.took(); !slices.Equal(got, []string{"start", "lastSeq", "settle", "flush"}) {
		t.Fatalf("opening asked %v", got)
	}
	if l.LastSeq != 7 || l.RunningTurnID != "turn1" || !l.Session.Running || !l.Interrupted || l.EditEnabled ||
		len(l.Pending) != 1 || l.Todo == nil || l.Session.Model != "m1" {
		t.Fatalf("loaded %+v", l)
	}
	if _, err := c.Load(ctx, s.ID, 5, 10); err != nil {
		t.Fatal(err)
	}
	if got := f.took()[4:]; !slices.Equal(got, []string{"lastSeq", "flush"}) {
		t.Fatalf("paging asked %v", got)
	}
	if _, err := c.Load(ctx, "nope", 0, 0); err == nil {
		t.Fatal("loading an unknown session succeeded")
	}
}

// Deleting stops the run first, fires SessionEnd, and drops the session's
// bus state, snapshots and hook transcript.
func TestDeleteStopsThenForgetsEverything(t *testing.T) {
	c, f, _, dir := newCatalog(t)
	ctx := context.Background()
	s, _ := c.Create(ctx, "t")
	transcript := filepath.Join(dir, "transcripts", s.ID+".jsonl")
	if err := os.MkdirAll(filepath.Dir(transcript), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(transcript, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if got := f.took()[1:]; !slices.Equal(got, []string{"cancel", "hook " + string(hooks.SessionEnd), "forget", "snapshots"}) {
		t.Fatalf("delete asked %v", got)
	}
	if _, err := os.Stat(transcript); !os.IsNotExist(err) {
		t.Fatalf("the transcript remains: %v", err)
	}
	if list, _ := c.List(ctx, 0); len(list) != 0 {
		t.Fatalf("still listed: %+v", list)
	}
}

// A session's model column follows the model its turns use, and the list
// hears of a change only when there is one; the list carries each cost.
func TestRecordModelAnnouncesOnlyAChange(t *testing.T) {
	c, _, seen, _ := newCatalog(t)
	ctx := context.Background()
	s, _ := c.Create(ctx, " t ")
	c.RecordModel(ctx, s.ID, "m1")
	if len(*seen) != 1 {
		t.Fatalf("an unchanged model was announced: %+v", *seen)
	}
	c.RecordModel(ctx, s.ID, "m2")
	if len(*seen) != 2 || (*seen)[1].Model != "m2" || (*seen)[1].Cost != 0.5 {
		t.Fatalf("the change was not announced with its cost: %+v", *seen)
	}
	list, err := c.List(ctx, 0)
	if err != nil || len(list) != 1 || list[0].Model != "m2" || list[0].Cost != 0.25 {
		t.Fatalf("list %+v, %v", list, err)
	}
	if err := c.Rename(ctx, s.ID, "  named "); err != nil || (*seen)[2].Title != "named" {
		t.Fatalf("rename: %v, %+v", err, *seen)
	}
}

// SetModel refuses an unknown session and sends the context bar for a
// known one.
func TestSetModelPublishesTheContextBar(t *testing.T) {
	c, f, _, _ := newCatalog(t)
	ctx := context.Background()
	if err := c.SetModel(ctx, "nope", "m2"); err == nil {
		t.Fatal("an unknown session took a model")
	}
	s, _ := c.Create(ctx, "t")
	if err := c.SetModel(ctx, s.ID, "m2"); err != nil {
		t.Fatal(err)
	}
	if got := f.took(); !slices.Equal(got, []string{"start", "context"}) {
		t.Fatalf("set model asked %v", got)
	}
}

// A session's facts are read when first asked for and kept: a root that
// becomes a repository later changes only sessions asked about after it.
func TestFactsAreFixedAtFirstUse(t *testing.T) {
	root := t.TempDir()
	c, _, _, _ := newCatalog(t, root)
	before := c.Facts("a")
	if before.Date == "" || !slices.Equal(before.Git, []string{"not a git repository"}) {
		t.Fatalf("facts of a plain folder: %+v", before)
	}
	if _, err := git.PlainInit(root, false); err != nil {
		t.Fatal(err)
	}
	if again := c.Facts("a"); !slices.Equal(again.Git, before.Git) {
		t.Fatalf("the session's facts changed: %+v", again)
	}
	if got := c.Facts("b").Git; len(got) != 1 || got[0] == before.Git[0] {
		t.Fatalf("a new session did not read the repository: %v", got)
	}
}

// At most maxGitRoots roots are described, each named when there are
// several.
func TestFactsBoundTheRoots(t *testing.T) {
	var roots []string
	for range maxGitRoots + 2 {
		roots = append(roots, t.TempDir())
	}
	c, _, _, _ := newCatalog(t, roots...)
	got := c.Facts("s").Git
	if len(got) != maxGitRoots || got[0] != roots[0]+": not a git repository" {
		t.Fatalf("facts of %d roots: %v", len(roots), got)
	}
}
