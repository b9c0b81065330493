package recovery

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/model/llm"
)

// fakeDialogs is a broker whose Withdraw loses when the answer came first.
type fakeDialogs struct {
	answer   func(approval.Answer)
	answered bool
}

func (d *fakeDialogs) Restore(c approval.Confirm, onAnswer func(approval.Answer)) {
	d.answer = onAnswer
}
func (d *fakeDialogs) Withdraw(id string) bool { return !d.answered }

type fakeQuestions struct{ expired []string }

func (q *fakeQuestions) ExpireRestored(c approval.Confirm, calls []llm.ToolCall, asked time.Time) {
	q.expired = append(q.expired, c.ID)
}

var (
	errBusy = errors.New("busy")
	nopLog  = zap.NewNop()
)

// A parked run is shown as the session's turn and asked again; the answer
// reaches Deps.Resume, whose Take claims it once, and a Release that comes
// after the answer reports Busy without touching the run.
func TestParkedRunClaimedOnce(t *testing.T) {
	d, q := &fakeDialogs{}, &fakeQuestions{}
	var resumed []*Parked
	var s *Service
	s = New(Deps{Dialogs: d, Questions: q, Busy: errBusy, Resume: func(p *Parked, a approval.Answer) {
		resumed = append(resumed, p)
	}})
	p := &Parked{SessionID: "s", TurnID: "t", Confirm: approval.Confirm{ID: "c"}}
	s.mu.Lock()
	s.interrupted["s"] = true
	s.mu.Unlock()
	s.park(p)
	if s.Shown("s") != "t" || s.Interrupted("s") || len(q.expired) != 1 {
		t.Fatalf("after park: shown %q, interrupted %v, expiring %v", s.Shown("s"), s.Interrupted("s"), q.expired)
	}
	d.answered = true
	d.answer(approval.Answer{Accept: true})
	if len(resumed) != 1 || resumed[0] != p {
		t.Fatalf("the answer resumed %v", resumed)
	}
	if err := s.Release("s", "a new message"); !errors.Is(err, errBusy) {
		t.Fatalf("Release after the answer: %v, want Busy", err)
	}
	if !s.Take(p) {
		t.Fatal("the answered run could not be claimed")
	}
	if s.Take(p) || s.Shown("s") != "" {
		t.Fatal("a parked run was claimed twice")
	}
	if err := s.Release("s", "stop"); err != nil {
		t.Fatalf("Release with nothing parked: %v", err)
	}
}

type fakeTrack struct {
	n        int
	last     llm.Message
	replaced [][2]int
}

func (f *fakeTrack) LLMLast(ctx context.Context, sid string) (int, llm.Message, error) {
	return f.n, f.last, nil
}

func (f *fakeTrack) ReplaceLLMMessages(ctx context.Context, sid string, from, to int, msgs []llm.Message) error {
	f.replaced = append(f.replaced, [2]int{from, to})
	return nil
}

// Only the exact shape a turn the model never answered leaves is dropped:
// its prompt last in the track, where the turn put it.
func TestDropUnansweredPrompt(t *testing.T) {
	user := func(s string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: s} }
	reply := llm.Message{Role: llm.RoleAssistant, Content: "hi"}
	history := []llm.Message{user("a"), reply, user("b")}
	cases := []struct {
		name    string
		n       int
		last    llm.Message
		history []llm.Message
		drop    bool
	}{
		{"unanswered", 3, user("b"), history, true},
		{"answered", 4, reply, history, false},
		{"track rewritten", 2, user("b"), history, false},
		{"another prompt last", 3, user("c"), history, false},
		{"no prompt", 0, llm.Message{}, nil, false},
	}
	for _, c := range cases {
		tr := &fakeTrack{n: c.n, last: c.last}
		DropUnansweredPrompt(context.Background(), tr, nopLog, "s", c.history)
		if got := len(tr.replaced) == 1 && tr.replaced[0] == [2]int{2, 3}; got != c.drop || (!c.drop && len(tr.replaced) != 0) {
			t.Errorf("%s: replaced %v, want drop %v", c.name, tr.replaced, c.drop)
		}
	}
}
