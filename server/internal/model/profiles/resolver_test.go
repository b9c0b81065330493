package profiles

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

// memKV is session state in memory.
type memKV map[string]json.RawMessage

func (m memKV) GetState(_ context.Context, sid, key string) (json.RawMessage, bool, error) {
	v, ok := m[sid+"/"+key]
	return v, ok, nil
}
func (m memKV) SetState(_ context.Context, sid, key string, v json.RawMessage) error {
	m[sid+"/"+key] = v
	return nil
}
func (m memKV) SetStateRelaxed(ctx context.Context, sid, key string, v json.RawMessage) error {
	return m.SetState(ctx, sid, key, v)
}
func (m memKV) DeleteState(_ context.Context, sid, key string) error {
	delete(m, sid+"/"+key)
	return nil
}

// memEndpoints is the store's endpoint memory in memory.
type memEndpoints map[string]string

func (m memEndpoints) EndpointToolCalling(_ context.Context, base, model string) (string, error) {
	return m[base+" "+model], nil
}
func (m memEndpoints) LearnEndpointToolCalling(_ context.Context, base, model, mode string) (bool, error) {
	changed := m[base+" "+model] != mode
	m[base+" "+model] = mode
	return changed, nil
}

type fixture struct {
	r       *Resolver
	state   memKV
	ends    memEndpoints
	notices []string
}

func newFixture(t *testing.T, v config.Values) *fixture {
	t.Helper()
	f := &fixture{state: memKV{}, ends: memEndpoints{}}
	f.r = New(Options{State: f.state, Endpoints: f.ends,
		Settings: func() (config.Values, map[string]string) {
			return v, map[string]string{"": "sk-default", "big": "sk-big"}
		},
		Notice: func(sid, text string) { f.notices = append(f.notices, sid+": "+text) },
		Tr:     fmt.Sprintf})
	return f
}

var testSettings = config.Values{
	"model": "big",
	"models": []any{
		map[string]any{"name": "big", "baseUrl": "http://127.0.0.1:9/v1", "model": "big-model"},
		map[string]any{"name": "small", "baseUrl": "http://127.0.0.1:9/v1", "model": "small-model", "toolCalling": "text"},
		map[string]any{"name": "mid", "baseUrl": "http://127.0.0.1:9/v1", "model": "mid-model"},
	},
	"roles.executor": "mid", "roles.reviewer": "small",
}

// TestResolverPrecedence: a custom command's model beats the session's
// /model choice, which beats govibe.model; a role with its own profile
// uses it, another falls back to the session's; a review's own model
// beats the reviewer role.
func TestResolverPrecedence(t *testing.T) {
	f := newFixture(t, testSettings)
	ctx := context.Background()
	if p := f.r.Session(ctx, "s1"); p.Name != "big" || p.APIKey != "sk-big" {
		t.Fatalf("session without a choice = %s key %q, want big sk-big", p.Name, p.APIKey)
	}
	if err := sessionstate.Set(ctx, f.state, "s1", sessionstate.Model, "small"); err != nil {
		t.Fatal(err)
	}
	if p := f.r.Session(ctx, "s1"); p.Name != "small" || p.APIKey != "sk-default" {
		t.Errorf("session with /model small = %s key %q", p.Name, p.APIKey)
	}
	if p := f.r.Turn(ctx, "s1", "mid"); p.Name != "mid" {
		t.Errorf("turn of a command naming mid = %s", p.Name)
	}
	if p := f.r.Turn(ctx, "s1", ""); p.Name != "small" {
		t.Errorf("turn without a command model = %s, want the session's small", p.Name)
	}
	if p := f.r.ForRole(ctx, "s1", RoleExecutor); p.Name != "mid" {
		t.Errorf("executor = %s, want its role's mid", p.Name)
	}
	if p := f.r.ForRole(ctx, "s1", PlanRole(scheduler.RoleEvaluator)); p.Name != "small" {
		t.Errorf("evaluator without a role profile = %s, want the session's small", p.Name)
	}
	if p := f.r.Role(RoleEvaluator); p.Name != "big" {
		t.Errorf("evaluator's own profile = %s, want the active big", p.Name)
	}
	if !f.r.HasRole(RoleReviewer) || f.r.HasRole(RoleTitle) {
		t.Errorf("HasRole reviewer %v title %v", f.r.HasRole(RoleReviewer), f.r.HasRole(RoleTitle))
	}
	if p := f.r.Reviewer(ctx, "s1", ""); p.Name != "small" {
		t.Errorf("review = %s, want the reviewer role's small", p.Name)
	}
	if p := f.r.Reviewer(ctx, "s1", "mid"); p.Name != "mid" {
		t.Errorf("review with its own model = %s, want mid", p.Name)
	}
}

// TestSubagentForeignModelToldOnce: an agent asking for another tool's
// model runs on what fits and the user is told once per session, agent
// and name; a profile's own name is used without a word.
func TestSubagentForeignModelToldOnce(t *testing.T) {
	f := newFixture(t, testSettings)
	ctx := context.Background()
	for range 2 {
		if p := f.r.Subagent(ctx, "s1", "helper", "haiku"); p.Name != "small" {
			t.Fatalf("haiku = %s, want the reviewer role's small", p.Name)
		}
	}
	if p := f.r.Subagent(ctx, "s1", "helper", "opus"); p.Name != "big" {
		t.Errorf("opus = %s, want the session's big", p.Name)
	}
	if p := f.r.Subagent(ctx, "s1", "executor", "mid"); p.Name != "mid" {
		t.Errorf("a profile's name = %s, want mid", p.Name)
	}
	if len(f.notices) != 2 {
		t.Errorf("notices = %q, want one for haiku and one for opus", f.notices)
	}
	if prof, note := f.r.Command(ctx, "s1", "haiku"); prof != "small" || note == "" {
		t.Errorf("command haiku = %q, %q", prof, note)
	}
}

// TestToolCallingRemembersTheEndpoint: a profile's own protocol wins;
// "auto" starts in the protocol the endpoint was found to need, and only
// the first run to learn it is told.
func TestToolCallingRemembersTheEndpoint(t *testing.T) {
	f := newFixture(t, testSettings)
	small, big := f.r.Named("small"), f.r.Named("big")
	if got := f.r.ToolCalling(small); got != "text" {
		t.Errorf("small's own protocol = %q", got)
	}
	if got := f.r.ToolCalling(big); got != "auto" {
		t.Errorf("big before learning = %q, want auto", got)
	}
	fallback := f.r.OnTextFallback(big)
	if !fallback() || fallback() {
		t.Error("only the first run to learn the fallback tells the user")
	}
	if got := f.r.ToolCalling(big); got != "text" {
		t.Errorf("big after the fallback = %q, want text", got)
	}
}
