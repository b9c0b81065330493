package turntools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/profiles"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// fake is a tool with a name and nothing else (the plan tools' stand-ins).
type fake struct{ name string }

func (f fake) Name() string            { return f.name }
func (f fake) Description() string     { return f.name }
func (f fake) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (f fake) ReadOnly() bool          { return true }
func (f fake) Traits() tools.Traits    { return 0 }
func (f fake) Run(context.Context, *tools.Env, json.RawMessage) (tools.Result, error) {
	return tools.Result{}, nil
}

type fakeProfiles struct{ toolProfile string }

func (p fakeProfiles) ForRole(context.Context, string, string) profiles.Profile {
	var x profiles.Profile
	x.Name, x.ToolProfile = "p", p.toolProfile
	return x
}

func (p fakeProfiles) Turn(ctx context.Context, sid, command string) profiles.Profile {
	x := p.ForRole(ctx, sid, "")
	x.Model = "m-" + command
	return x
}

func (fakeProfiles) ToolCalling(profiles.Profile) string { return "native" }

type fakePlans struct{ request *string }

func (p fakePlans) Tools(sid, turnID, request string, role scheduler.Role, tag string, propose bool) (tools.Tool, tools.Tool) {
	*p.request = request
	return fake{"fake_create"}, fake{"fake_complete"}
}

type fakeCompaction struct{}

func (fakeCompaction) FreeTools(string, string) []tools.Tool { return tools.Builtin() }

type noHooks struct{}

func (noHooks) WithHooks(ts []tools.Tool) []tools.Tool { return ts }

type fakeApprovals struct{ got *approval.Turn }

func (a fakeApprovals) For(t approval.Turn) *approval.Approver { *a.got = t; return nil }

type notices struct{ got []string }

func newService(t *testing.T, toolProfile string, cs config.Settings, n *notices, request *string, got *approval.Turn) *Service {
	t.Helper()
	return New(Deps{Profiles: fakeProfiles{toolProfile}, Plans: fakePlans{request}, Compaction: fakeCompaction{}, Hooks: noHooks{},
		Approvals: fakeApprovals{got},
		Modes:     func(context.Context, string) moderun.Turn { return moderun.Turn{} },
		Subagents: func(context.Context, string) []tools.Tool { return nil },
		Browser:   func() tools.Tool { return fake{"fake_browser"} },
		MCP:       func(context.Context, map[string]bool) []tools.Tool { return nil },
		Prompt: func(sid string, sit toolpolicy.Situation, offered []tools.Tool) string {
			return sid + ":" + string(sit.Role)
		},
		Live:     func(sid string) Turn { return Turn{SessionID: sid} },
		Latest:   func(sid string) Turn { return Turn{SessionID: sid} },
		Settings: func() config.Settings { return cs },
		Notice:   func(level, msg string) { n.got = append(n.got, level+": "+msg) },
		Tr:       func(f string, a ...any) string { return f },
		FreeTag:  "free", NoEditor: true})
}

// The situation carries the role, the turn's btw, the sandbox setting
// and the editor's absence; the plan tools are given the turn's request.
func TestRoleToolsSituation(t *testing.T) {
	var n notices
	var request string
	cs := config.Settings{}
	cs.Sandbox.Enabled = true
	s := newService(t, "", cs, &n, &request, new(approval.Turn))
	ts, sit := s.RoleTools(context.Background(), Turn{SessionID: "s", ID: "t", Text: "do it", BTW: true}, scheduler.RoleExecutor, "x", true)
	if sit.Role != toolpolicy.Executor || !sit.Final || !sit.BTW || !sit.Sandbox || !sit.Headless {
		t.Errorf("situation = %+v", sit)
	}
	if request != "do it" {
		t.Errorf("plan tools got request %q", request)
	}
	if ts[len(ts)-1].Name() != "fake_browser" {
		t.Errorf("the browser sub-agent is not last: %s", ts[len(ts)-1].Name())
	}
	if len(n.got) != 0 {
		t.Errorf("unexpected notices %v", n.got)
	}
}

// A malformed tool profile offers every tool and is reported once.
func TestMalformedToolProfileReportedOnce(t *testing.T) {
	var n notices
	var request string
	s := newService(t, "bad name!", config.Settings{}, &n, &request, new(approval.Turn))
	if _, err := toolpolicy.ParseProfile("bad name!"); err == nil {
		t.Fatal("the malformed profile parses")
	}
	for range 2 {
		_, sit := s.RoleTools(context.Background(), Turn{SessionID: "s"}, scheduler.RoleFree, "free", false)
		if sit.Profile.Kind == toolpolicy.ProfileList {
			t.Errorf("a malformed profile narrowed the tools: %+v", sit.Profile)
		}
	}
	if len(n.got) != 1 || !strings.HasPrefix(n.got[0], "warning: ") {
		t.Errorf("notices = %v, want one warning", n.got)
	}
}

// A list naming a tool GoVibe lacks says which, once.
func TestUnknownToolNamesReportedOnce(t *testing.T) {
	var n notices
	var request string
	s := newService(t, "no_such_tool, "+tools.Builtin()[0].Name(), config.Settings{}, &n, &request, new(approval.Turn))
	for range 2 {
		s.RoleTools(context.Background(), Turn{SessionID: "s"}, scheduler.RoleFree, "free", false)
	}
	if len(n.got) != 1 {
		t.Errorf("notices = %v, want one", n.got)
	}
}

// The offered list names the turn's model and the tools the free run's
// requests carry.
func TestOffered(t *testing.T) {
	var n notices
	var request string
	s := newService(t, "", config.Settings{}, &n, &request, new(approval.Turn))
	model, names := s.Offered(context.Background(), "s")
	if model != "m-" {
		t.Errorf("model = %q", model)
	}
	if len(names) == 0 || !contains(names, tools.Builtin()[0].Name()) {
		t.Errorf("offered = %v", names)
	}
}

// The approver is asked with the turn's id, request, rules and message.
func TestApprover(t *testing.T) {
	var n notices
	var request string
	var got approval.Turn
	s := newService(t, "", config.Settings{}, &n, &request, &got)
	tt := Turn{SessionID: "s", ID: "t", Text: "req", MessageID: func() string { return "msg" }}
	tt.Limits.Rules = []string{"Bash(ls)"}
	s.Approver(tt, nil)
	if got.SessionID != "s" || got.ID != "t" || got.Request != "req" || got.MessageID() != "msg" || len(got.AllowRules) != 1 {
		t.Errorf("approval turn = %+v", got)
	}
}

// A settings change rebuilds the fetcher's policy but keeps its rate
// limiter, shared by every run.
func TestWebKeepsItsLimiter(t *testing.T) {
	var n notices
	var request string
	s := newService(t, "", config.Settings{}, &n, &request, new(approval.Turn))
	before := s.Web()
	cs := config.Settings{}
	cs.Web.AllowHosts = []string{"example.com"}
	s.SettingsChanged(cs)
	after := s.Web()
	if after == before || after.Limiter != before.Limiter {
		t.Errorf("fetcher %p→%p, limiter %p→%p", before, after, before.Limiter, after.Limiter)
	}
}

// With the sandbox off there is no sandbox and nothing to say about it.
func TestSandboxOff(t *testing.T) {
	var n notices
	var request string
	s := newService(t, "", config.Settings{}, &n, &request, new(approval.Turn))
	if sb := s.Sandbox(config.Settings{}, "s"); sb != nil {
		t.Errorf("sandbox = %+v", sb)
	}
	s.NoticeSandbox(func(text string) { t.Errorf("notice %q", text) })
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
