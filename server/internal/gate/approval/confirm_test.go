package approval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/govibe/govibe/server/internal/gate/osbox"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/gate/allowrules"
	"github.com/govibe/govibe/server/internal/gate/shellcheck"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// fakeHost answers every question with answer (or fails with askErr) and
// records what it was asked and told.
type fakeHost struct {
	values config.Values
	answer Answer
	askErr error
	// block parks Ask until its context ends (cancellation).
	block bool

	mu      sync.Mutex
	asked   []Confirm
	notices []string
}

func (h *fakeHost) Settings() config.Settings { return config.Typed(h.values) }
func (h *fakeHost) Tr(msg string, args ...any) string {
	return fmt.Sprintf(msg, args...)
}
func (h *fakeHost) Notice(_, _, level, text string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.notices = append(h.notices, level+":"+text)
}
func (h *fakeHost) Ask(ctx context.Context, c Confirm) (Answer, error) {
	h.mu.Lock()
	h.asked = append(h.asked, c)
	h.mu.Unlock()
	if h.block {
		<-ctx.Done()
		return Answer{}, ctx.Err()
	}
	return h.answer, h.askErr
}

// The reviewers are off by default (their host, reviewHost, is never
// called here).
func (h *fakeHost) Client(string, string) (llm.Client, string, error) {
	return nil, "", errors.New("no model in this test")
}
func (h *fakeHost) PublishReview(reviewers.Target, *reviewers.Card) {}
func (h *fakeHost) Denied(shellcheck.Workspace, string, shellcheck.Analysis) bool {
	return false
}

type reviewHost struct{ *fakeHost }

func (r reviewHost) Notice(reviewers.Target, string) {}

// memKV is session state in memory.
type memKV struct {
	mu sync.Mutex
	m  map[string]json.RawMessage
}

func (k *memKV) GetState(_ context.Context, sid, key string) (json.RawMessage, bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.m[sid+"/"+key]
	return v, ok, nil
}
func (k *memKV) SetState(_ context.Context, sid, key string, v json.RawMessage) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[string]json.RawMessage{}
	}
	k.m[sid+"/"+key] = v
	return nil
}
func (k *memKV) SetStateRelaxed(ctx context.Context, sid, key string, v json.RawMessage) error {
	return k.SetState(ctx, sid, key, v)
}
func (k *memKV) DeleteState(_ context.Context, sid, key string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.m, sid+"/"+key)
	return nil
}

type fixture struct {
	host  *fakeHost
	rules *allowrules.File
	a     *Approver
}

// newFixture is one turn's approver over a temporary workspace and
// always-allow file; o adjusts the options (headless runs).
func newFixture(t *testing.T, values config.Values, o Options) *fixture {
	t.Helper()
	if values == nil {
		values = config.Values{}
	}
	h := &fakeHost{values: values, answer: Answer{Accept: true}}
	dir := t.TempDir()
	root := filepath.Join(dir, "ws")
	o.Roots = []string{root}
	o.AllowRules = allowrules.Open(filepath.Join(dir, "allow-rules.json"))
	if o.Sandbox == nil {
		// These tests decide, they run nothing: the machine's sandbox is
		// taken as working unless a test says otherwise.
		o.Sandbox = func() osbox.Status { return osbox.Status{Mechanism: osbox.Bubblewrap} }
	}
	kv := &memKV{}
	rv := reviewers.New(reviewHost{h}, nil, reviewers.Options{Roots: o.Roots}, nil)
	x := New(h, kv, rv, o)
	return &fixture{host: h, rules: o.AllowRules, a: x.For(Turn{SessionID: "s1", ID: "t1", Request: "do it"})}
}

func mcpCall() tools.ToolProposal {
	return tools.ToolProposal{ToolCallID: "c1", Server: "files", Remote: "read", Tool: "mcp__files__read", Arguments: json.RawMessage(`{"path":"a"}`)}
}

// An MCP call asks the user like a shell command; the answer decides, and
// "Always allow" writes exactly the card's rule, after which the same call
// runs unasked.
func TestConfirmToolAsksAndAlwaysAllows(t *testing.T) {
	f := newFixture(t, nil, Options{})
	ctx := context.Background()

	f.host.answer = Answer{Accept: false, Reason: " not now "}
	d, err := f.a.ConfirmTool(ctx, mcpCall())
	if err != nil || d.Allowed || d.Reason != " not now " {
		t.Fatalf("deny: %+v %v", d, err)
	}
	if len(f.host.asked) != 1 {
		t.Fatalf("asked %d times", len(f.host.asked))
	}
	c := f.host.asked[0]
	if c.Kind != "tool" || c.SessionID != "s1" || c.TurnID != "t1" || c.ToolCallID != "c1" || c.Server != "files" || c.Tool != "read" ||
		c.Command != "mcp__files__read" || c.Question != `{"path":"a"}` || !slices.Equal(c.AllowRules, []string{"mcp__files__read"}) {
		t.Fatalf("card: %+v", c)
	}
	if len(f.rules.Rules()) != 0 {
		t.Fatalf("a refusal wrote rules: %v", f.rules.Rules())
	}

	// Accepting without "Always allow" allows once and writes nothing.
	f.host.answer = Answer{Accept: true}
	if d, err := f.a.ConfirmTool(ctx, mcpCall()); err != nil || !d.Allowed {
		t.Fatalf("allow: %+v %v", d, err)
	}
	if len(f.rules.Rules()) != 0 || len(f.host.notices) != 0 {
		t.Fatalf("allow once wrote %v, said %v", f.rules.Rules(), f.host.notices)
	}

	f.host.answer = Answer{Accept: true, AlwaysAllow: true}
	if d, err := f.a.ConfirmTool(ctx, mcpCall()); err != nil || !d.Allowed {
		t.Fatalf("always allow: %+v %v", d, err)
	}
	if got := f.rules.Rules(); !slices.Equal(got, []string{"mcp__files__read"}) {
		t.Fatalf("rules written: %v", got)
	}
	if len(f.host.notices) != 1 || !strings.Contains(f.host.notices[0], "Always allowed from now on: mcp__files__read") {
		t.Fatalf("notices: %v", f.host.notices)
	}
	asked := len(f.host.asked)
	d, err = f.a.ConfirmTool(ctx, mcpCall())
	if err != nil || !d.Allowed || d.Rule != "mcp__files__read" || len(f.host.asked) != asked {
		t.Fatalf("after always allow: %+v %v, asked %d→%d", d, err, asked, len(f.host.asked))
	}
}

// Rules decide before anyone is asked: a server-wide deny refuses, a user
// allow rule permits, a workspace allow rule never does.
func TestConfirmToolRules(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		values  config.Values
		allowed bool
		asked   bool
		reason  string
	}{
		{"server denied", config.Values{"permissions.deny": []any{"mcp__files__*"}}, false, false, "denied by your permission rule mcp__files__*"},
		{"tool denied", config.Values{"permissions.deny": []any{"mcp__files__read"}}, false, false, "denied"},
		{"workspace denies server", config.Values{"permissions.workspace.deny": []any{"mcp__files"}}, false, false, "denied"},
		{"user allows server", config.Values{"permissions.allow": []any{"mcp__files__*"}}, true, false, ""},
		{"user allows tool", config.Values{"permissions.allow": []any{"mcp__files__read"}}, true, false, ""},
		{"workspace allow ignored", config.Values{"permissions.workspace.allow": []any{"mcp__files__read"}}, true, true, ""},
		{"ask rule beats allow", config.Values{"permissions.allow": []any{"mcp__files__*"}, "permissions.ask": []any{"mcp__files__read"}}, true, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, c.values, Options{})
			d, err := f.a.ConfirmTool(ctx, mcpCall())
			if err != nil || d.Allowed != c.allowed || !strings.Contains(d.Reason, c.reason) || (len(f.host.asked) > 0) != c.asked {
				t.Fatalf("%+v %v, asked %d", d, err, len(f.host.asked))
			}
			// Under an ask rule "Always allow" would write a rule that never applies.
			if c.name == "ask rule beats allow" && len(f.host.asked[0].AllowRules) != 0 {
				t.Fatalf("ask rule card offers %v", f.host.asked[0].AllowRules)
			}
		})
	}
}

// Headless runs never ask: --approve all allows unless an ask rule
// applies; otherwise the call is refused with the remedy.
func TestConfirmToolHeadless(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil, Options{Headless: true, Approve: "edits"})
	d, _ := f.a.ConfirmTool(ctx, mcpCall())
	if d.Allowed || !strings.Contains(d.Reason, "--approve all") || len(f.host.asked) != 0 {
		t.Fatalf("approve edits: %+v", d)
	}
	f = newFixture(t, nil, Options{Headless: true, Approve: "all"})
	if d, _ := f.a.ConfirmTool(ctx, mcpCall()); !d.Allowed || d.Rule != "--approve all" {
		t.Fatalf("approve all: %+v", d)
	}
	f = newFixture(t, config.Values{"permissions.ask": []any{"mcp__files__read"}}, Options{Headless: true, Approve: "all"})
	if d, _ := f.a.ConfirmTool(ctx, mcpCall()); d.Allowed || len(f.host.asked) != 0 {
		t.Fatalf("approve all under an ask rule: %+v", d)
	}
}

// A question the user never answers ends with the turn: the error is the
// context's and nothing is allowed or written.
func TestConfirmCancelled(t *testing.T) {
	f := newFixture(t, config.Values{"sandbox.autoApprove": false}, Options{})
	f.host.block = true
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var (
		td  tools.ToolDecision
		fd  tools.FetchDecision
		sd  tools.ShellDecision
		err [3]error
	)
	go func() {
		defer close(done)
		td, err[0] = f.a.ConfirmTool(ctx, mcpCall())
		fd, err[1] = f.a.ConfirmFetch(ctx, tools.FetchProposal{ToolCallID: "c2", URL: "https://example.com/x", Host: "example.com"})
		sd, err[2] = f.a.ConfirmShell(ctx, tools.ShellProposal{ToolCallID: "c3", Command: "make build", Cwd: f.a.x.opts.Roots[0]})
	}()
	cancel()
	<-done
	for i, e := range err {
		if !errors.Is(e, context.Canceled) {
			t.Errorf("call %d: err %v, want context.Canceled", i, e)
		}
	}
	if td.Allowed || fd.Allowed || sd.Allowed || len(f.rules.Rules()) != 0 {
		t.Fatalf("cancelled decisions allowed something: %+v %+v %+v, rules %v", td, fd, sd, f.rules.Rules())
	}
	// Any other failure to ask is returned as it is.
	f.host.block, f.host.askErr = false, errors.New("broker closed")
	if _, e := f.a.ConfirmTool(context.Background(), mcpCall()); e == nil || e.Error() != "broker closed" {
		t.Fatalf("ask error: %v", e)
	}
}

// A web fetch asks with the host's rule on the card; deny and allow rules
// decide first; "Always allow" writes the host's rule.
func TestConfirmFetch(t *testing.T) {
	ctx := context.Background()
	p := tools.FetchProposal{ToolCallID: "c1", URL: "https://docs.example.com/a", Host: "docs.example.com", Headers: []string{"Accept"}}

	f := newFixture(t, nil, Options{})
	f.host.answer = Answer{Accept: false, Reason: " private "}
	d, err := f.a.ConfirmFetch(ctx, p)
	if err != nil || d.Allowed || !d.ByUser || d.Reason != "private" {
		t.Fatalf("deny: %+v %v", d, err)
	}
	c := f.host.asked[0]
	if c.Kind != "fetch" || c.URL != p.URL || !slices.Equal(c.Headers, []string{"Accept"}) || !slices.Equal(c.AllowRules, []string{"WebFetch(domain:docs.example.com)"}) {
		t.Fatalf("card: %+v", c)
	}
	f.host.answer = Answer{Accept: true, AlwaysAllow: true}
	if d, err := f.a.ConfirmFetch(ctx, p); err != nil || !d.Allowed {
		t.Fatalf("always allow: %+v %v", d, err)
	}
	if d, _ := f.a.ConfirmFetch(ctx, p); !d.Allowed || d.Rule == "" || len(f.host.asked) != 2 {
		t.Fatalf("after always allow: %+v, asked %d", d, len(f.host.asked))
	}

	f = newFixture(t, config.Values{"permissions.deny": []any{"WebFetch(domain:example.com)"}}, Options{})
	if d, _ := f.a.ConfirmFetch(ctx, p); d.Allowed || !strings.Contains(d.Display, "WebFetch(domain:example.com)") || len(f.host.asked) != 0 {
		t.Fatalf("denied: %+v", d)
	}
	f = newFixture(t, nil, Options{Headless: true})
	if d, _ := f.a.ConfirmFetch(ctx, p); d.Allowed || !strings.Contains(d.Reason, "WebFetch(domain:docs.example.com)") {
		t.Fatalf("headless: %+v", d)
	}
}

// A shell command the user accepts runs as shown; "Always allow" writes
// the per-sub-command rule; a command the user edited runs once and
// writes no rule; a refusal is the user's.
func TestConfirmShell(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, config.Values{"sandbox.autoApprove": false}, Options{})
	cwd := f.a.x.opts.Roots[0]
	p := tools.ShellProposal{ToolCallID: "c1", Command: "make build", Cwd: cwd}

	f.host.answer = Answer{Accept: false, Reason: "no"}
	if d, err := f.a.ConfirmShell(ctx, p); err != nil || d.Allowed || !d.ByUser || d.Reason != "no" {
		t.Fatalf("deny: %+v %v", d, err)
	}
	c := f.host.asked[0]
	if c.Kind != "shell" || c.Command != "make build" || c.Analysis == nil || !slices.Equal(c.AllowRules, []string{"Bash(make build:*)"}) {
		t.Fatalf("card: %+v", c)
	}

	f.host.answer = Answer{Accept: true, AlwaysAllow: true, Command: "make build -j2"}
	if d, err := f.a.ConfirmShell(ctx, p); err != nil || !d.Allowed || d.Command != "make build -j2" {
		t.Fatalf("edited: %+v %v", d, err)
	}
	if len(f.rules.Rules()) != 0 {
		t.Fatalf("an edited command wrote %v", f.rules.Rules())
	}

	f.host.answer = Answer{Accept: true, AlwaysAllow: true}
	if d, err := f.a.ConfirmShell(ctx, p); err != nil || !d.Allowed || d.Command != "make build" {
		t.Fatalf("always allow: %+v %v", d, err)
	}
	if !slices.Equal(f.rules.Rules(), []string{"Bash(make build:*)"}) {
		t.Fatalf("rules: %v", f.rules.Rules())
	}
	asked := len(f.host.asked)
	d, err := f.a.ConfirmShell(ctx, tools.ShellProposal{ToolCallID: "c2", Command: "make build VERBOSE=1", Cwd: cwd})
	if err != nil || !d.Allowed || d.Auto == nil || d.Auto.By != tools.AutoByRule || len(f.host.asked) != asked {
		t.Fatalf("after always allow: %+v %v", d, err)
	}
}

// Headless shell: a dangerous command is refused whatever --approve says;
// other commands follow the flag.
func TestConfirmShellHeadless(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil, Options{Headless: true, Approve: "all"})
	cwd := f.a.x.opts.Roots[0]
	if d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "make build", Cwd: cwd}); !d.Allowed || d.Auto == nil || d.Auto.By != tools.AutoByFlag {
		t.Fatalf("approve all: %+v", d)
	}
	if d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "rm -rf /", Cwd: cwd}); d.Allowed || !strings.Contains(d.Reason, "headless") {
		t.Fatalf("dangerous: %+v", d)
	}
	if d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "make build", Cwd: cwd}); d.Grant != (tools.SandboxGrant{Write: true, Network: true}) {
		t.Fatalf("--approve all must grant workspace writes and the allowed network: %+v", d.Grant)
	}
	f = newFixture(t, config.Values{"sandbox.autoApprove": false}, Options{Headless: true, Approve: "none"})
	if d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "make build", Cwd: cwd}); d.Allowed || len(f.host.asked) != 0 {
		t.Fatalf("approve none: %+v", d)
	}
	// With the sandbox, --approve none still runs it, read-only and offline.
	f = newFixture(t, nil, Options{Headless: true, Approve: "none"})
	if d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "make build", Cwd: cwd}); !d.Allowed || d.Grant != (tools.SandboxGrant{}) {
		t.Fatalf("approve none in the sandbox: %+v", d)
	}
}

// The sandbox decides what runs unasked: with it, anything but a command
// that sets out to write (mutating) or a dangerous one runs read-only and
// offline; a person's yes grants writes, the allowed network and, for git,
// its metadata. Without it (fail closed) even read-only commands ask.
func TestSandboxApprovals(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil, Options{})
	cwd := f.a.x.opts.Roots[0]
	for _, cmd := range []string{"ls", "go test ./...", "python3 x.py", "git status"} {
		d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: cmd, Cwd: cwd})
		if !d.Allowed || d.Grant != (tools.SandboxGrant{}) || len(f.host.asked) != 0 {
			t.Fatalf("%s: %+v (asked %d)", cmd, d, len(f.host.asked))
		}
	}
	d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "git commit -am x", Cwd: cwd})
	if len(f.host.asked) != 1 || !d.Allowed || d.Grant != (tools.SandboxGrant{Write: true, Network: true, GitWrite: true}) {
		t.Fatalf("a writing git command must ask and then may write .git: %+v", d)
	}
	d, _ = f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "mkdir build && touch build/x", Cwd: cwd})
	if len(f.host.asked) != 2 || d.Grant != (tools.SandboxGrant{Write: true, Network: true}) {
		t.Fatalf("a mutating command must ask: %+v", d)
	}
	// Asked after a denial, a yes grants what was denied, nothing else.
	den := &tools.Denial{Write: true, Paths: []string{"out.txt"}}
	d, _ = f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "make build", Cwd: cwd, Denial: den})
	c := f.host.asked[len(f.host.asked)-1]
	if !d.Allowed || d.Grant != (tools.SandboxGrant{Write: true}) || c.Analysis == nil || c.Analysis.Class != "sandbox-denied" ||
		!strings.Contains(strings.Join(c.Analysis.Reasons, " "), "Run again with write access (denied: writing out.txt)") {
		t.Fatalf("expansion: %+v card %+v", d, c.Analysis)
	}
	// Headless never widens a sandbox.
	h := newFixture(t, nil, Options{Headless: true, Approve: "all"})
	if d, _ := h.a.ConfirmShell(ctx, tools.ShellProposal{Command: "make build", Cwd: cwd, Denial: den}); d.Allowed {
		t.Fatalf("headless widened the sandbox: %+v", d)
	}
	// No sandbox: fail closed.
	n := newFixture(t, nil, Options{Sandbox: func() osbox.Status { return osbox.Status{Mechanism: osbox.None, Reason: "test"} }})
	n.host.answer = Answer{Accept: false}
	if d, _ := n.a.ConfirmShell(ctx, tools.ShellProposal{Command: "ls", Cwd: cwd}); d.Allowed || len(n.host.asked) != 1 {
		t.Fatalf("without a sandbox a read-only command must ask: %+v", d)
	}
}

// After a restart the recorded answer decides the same call (same tool and
// arguments, same URL) without asking; a different call asks again.
func TestResumedAnswers(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil, Options{})
	call := mcpCall()
	card := Confirm{Kind: "tool", ToolCallID: "c1", Command: call.Tool, Question: string(call.Arguments), AllowRules: []string{"mcp__files__read"}}
	r := Resume(f.a, card, Answer{Accept: true, AlwaysAllow: true})
	if d, err := r.ConfirmTool(ctx, call); err != nil || !d.Allowed || len(f.host.asked) != 0 {
		t.Fatalf("same call: %+v %v, asked %d", d, err, len(f.host.asked))
	}
	if !slices.Equal(f.rules.Rules(), []string{"mcp__files__read"}) {
		t.Fatalf("resumed always allow: %v", f.rules.Rules())
	}
	f = newFixture(t, nil, Options{})
	r = Resume(f.a, card, Answer{Accept: true})
	other := call
	other.Arguments = json.RawMessage(`{"path":"b"}`)
	f.host.answer = Answer{Accept: false}
	if d, _ := r.ConfirmTool(ctx, other); d.Allowed || len(f.host.asked) != 1 {
		t.Fatalf("changed arguments: %+v, asked %d", d, len(f.host.asked))
	}
	fc := Confirm{Kind: "fetch", ToolCallID: "c9", URL: "https://a.example/x"}
	r = Resume(f.a, fc, Answer{Accept: false, Reason: "no"})
	if d, _ := r.ConfirmFetch(ctx, tools.FetchProposal{ToolCallID: "c9", URL: "https://a.example/x", Host: "a.example"}); d.Allowed || !d.ByUser || len(f.host.asked) != 1 {
		t.Fatalf("resumed fetch: %+v", d)
	}
}
