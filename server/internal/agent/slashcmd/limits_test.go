package slashcmd

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// kv is an in-memory sessionstate.KV.
type kv map[string]json.RawMessage

func (m kv) GetState(_ context.Context, sid, key string) (json.RawMessage, bool, error) {
	v, ok := m[sid+"/"+key]
	return v, ok, nil
}
func (m kv) SetState(_ context.Context, sid, key string, v json.RawMessage) error {
	m[sid+"/"+key] = v
	return nil
}
func (m kv) SetStateRelaxed(ctx context.Context, sid, key string, v json.RawMessage) error {
	return m.SetState(ctx, sid, key, v)
}
func (m kv) DeleteState(_ context.Context, sid, key string) error {
	delete(m, sid+"/"+key)
	return nil
}

var _ sessionstate.KV = kv{}

func TestLimitsBlockWhatTheListDoesNotName(t *testing.T) {
	l := LimitsOf("", []string{"Read", "Bash(git status:*)", "mcp__docs", "  "})
	if got := strings.Join(l.AllowedList(), " "); got != "Bash Read mcp__docs read_file run_shell_command Bash(git status:*)" {
		t.Fatalf("AllowedList %q", got)
	}
	// The pattern is an allow rule for the turn, and survives a round
	// trip through what is persisted.
	if strings.Join(l.Rules, " ") != "Bash(git status:*)" || strings.Join(LimitsOf("", l.AllowedList()).Rules, " ") != "Bash(git status:*)" {
		t.Fatalf("rules %q", l.Rules)
	}
	// What the list does not name is withheld (toolpolicy gives the
	// reason, and keeps an earlier layer's: TestLayersKeepTheFirstReason).
	for _, n := range []string{"write_file", "mcp__other__x"} {
		if l.Allows(n) {
			t.Errorf("%s not blocked", n)
		}
	}
	for _, n := range []string{"read_file", "run_shell_command", "mcp__docs__search"} {
		if !l.Allows(n) {
			t.Errorf("%s blocked though allowed", n)
		}
	}
	if l.Command() == nil {
		t.Error("a list gives the policy no command limit")
	}
	if LimitsOf("big", nil).Command() != nil || !LimitsOf("big", nil).Allows("write_file") || LimitsOf("", nil).None() != true || LimitsOf("m", nil).None() {
		t.Fatalf("no list blocked something")
	}
}

// The latest turn's limits are kept for a resumed run of that turn only,
// and a turn without limits removes them.
func TestTurnLimitsSurviveForTheirTurnOnly(t *testing.T) {
	ctx, st := context.Background(), kv{}
	if err := RecordTurn(ctx, st, "s", "t1", LimitsOf("small", []string{"read_file"})); err != nil {
		t.Fatal(err)
	}
	l, ok := RestoreTurn(ctx, st, "s", "t1")
	if !ok || l.Model != "small" || !l.Allowed["read_file"] || len(l.Allowed) != 1 {
		t.Fatalf("restored %+v %v", l, ok)
	}
	if _, ok := RestoreTurn(ctx, st, "s", "t2"); ok {
		t.Fatal("another turn got t1's limits")
	}
	if err := RecordTurn(ctx, st, "s", "t2", Limits{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := RestoreTurn(ctx, st, "s", "t1"); ok || len(st) != 0 {
		t.Fatalf("a turn without limits left %v", st)
	}
}

type plans struct{ p *scheduler.Plan }

func (s *plans) Read(context.Context, string) (*scheduler.Plan, error) { return s.p, nil }
func (s *plans) Update(_ context.Context, _, _, _ string, f func(*scheduler.Plan) (*scheduler.Plan, error)) (*scheduler.Plan, error) {
	p, err := f(s.p)
	s.p = p
	return p, err
}

func TestAPlanCarriesItsCommandsLimits(t *testing.T) {
	ctx := context.Background()
	ps := &plans{p: &scheduler.Plan{}}
	if _, ok := FromPlan(ctx, ps, "s"); ok {
		t.Fatal("a plan without limits gave some")
	}
	if err := StampPlan(ctx, ps, "s", "t", "free", Limits{}); err != nil || ps.p.Model != "" {
		t.Fatalf("no limits stamped %+v %v", ps.p, err)
	}
	if err := StampPlan(ctx, ps, "s", "t", "free", LimitsOf("small", []string{"read_file"})); err != nil {
		t.Fatal(err)
	}
	l, ok := FromPlan(ctx, ps, "s")
	if !ok || l.Model != "small" || strings.Join(l.AllowedList(), ",") != "read_file" {
		t.Fatalf("from plan %+v %v", l, ok)
	}
	if _, ok := FromPlan(ctx, &plans{}, "s"); ok {
		t.Fatal("no plan gave limits")
	}
}
