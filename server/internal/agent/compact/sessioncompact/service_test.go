package sessioncompact

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// recorded is the events the service published, as lines.
type recorded struct {
	mu    sync.Mutex
	lines []string
}

func (r *recorded) add(s string) { r.mu.Lock(); r.lines = append(r.lines, s); r.mu.Unlock() }
func (r *recorded) Notice(sid, turnID, status, text string) {
	r.add("notice " + status + ": " + text)
}
func (r *recorded) Compacted(sid, turnID, status, text string, res Result) {
	r.add("compacted " + status)
}
func (r *recorded) Finished(sid, job, status string, u usage.Turn, use usage.Context) {
	r.add("finished " + status)
}

// newTestService is the service on a real store and a real meter, with
// the turn runner's answers made up: a 32k window, two tools, no model.
func newTestService(t *testing.T, text bool) (*Service, *store.Store, *recorded, *sync.WaitGroup) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "s.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ev, jobs := &recorded{}, &sync.WaitGroup{}
	s := New(Deps{Store: st, Meter: usage.New(st, nil), Events: ev,
		Settings: func() config.Settings { return config.Typed(config.Values{}) },
		Tr:       func(f string, args ...any) string { return f },
		Profile: func(context.Context, string) llm.Profile {
			return llm.Profile{ContextWindow: 32000, MaxOutputTokens: 2000}
		},
		Summariser: func() (llm.Profile, bool) { return llm.Profile{}, false },
		Client:     func(llm.Profile) (llm.Client, error) { return nil, errors.New("no model request expected") },
		FreeRequest: func(context.Context, string) (string, []tools.Tool, bool) {
			return "system", tools.Builtin()[:2], text
		},
		PreCompact: func(context.Context, string, string, bool) {},
		ContextUse: func(context.Context, string) usage.Context { return usage.Context{} },
		Explain:    func(err error) string { return err.Error() },
		Base:       context.Background(),
		Go: func(f func()) {
			jobs.Add(1)
			go func() { defer jobs.Done(); f() }()
		}})
	return s, st, ev, jobs
}

// /compact on a session with nothing to summarise says so in a notice and
// ends as a turn does; an unknown session is refused at once, naming it.
func TestStartReportsNothingToCompact(t *testing.T) {
	s, st, ev, jobs := newTestService(t, false)
	ctx := context.Background()
	if _, err := s.Start(ctx, "nope", compaction.TriggerCommand); err == nil || !strings.Contains(err.Error(), "session nope") {
		t.Fatalf("unknown session: %v", err)
	}
	sess, err := st.CreateSession(ctx, store.NewSession{Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Start(ctx, sess.ID, compaction.TriggerCommand); err != nil {
		t.Fatal(err)
	}
	jobs.Wait()
	want := []string{"notice warn: Nothing to summarise yet: the conversation is still short.", "finished done"}
	if strings.Join(ev.lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events %q, want %q", ev.lines, want)
	}
}

// The summary request carries the free run's tool definitions, and none
// in the text tool-call protocol.
func TestPrefixFollowsTheToolCallProtocol(t *testing.T) {
	s, _, _, _ := newTestService(t, false)
	if system, defs := s.Prefix(context.Background(), "s"); system != "system" || len(defs) != 2 || defs[0].Name == "" {
		t.Fatalf("native protocol: %q, %d definitions", system, len(defs))
	}
	s, _, _, _ = newTestService(t, true)
	if _, defs := s.Prefix(context.Background(), "s"); defs != nil {
		t.Fatalf("text protocol sent %d definitions", len(defs))
	}
}
