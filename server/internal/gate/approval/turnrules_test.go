package approval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// turnFixture is newFixture's approver for a turn a custom command
// started with these allowed-tools rules.
func turnFixture(t *testing.T, o Options, rules ...string) *fixture {
	f := newFixture(t, nil, o)
	f.a = f.a.x.For(Turn{SessionID: "s1", ID: "t1", Request: "/commit", AllowRules: rules})
	if err := os.MkdirAll(f.a.x.opts.Roots[0], 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) root() string { return f.a.x.opts.Roots[0] }

// Claude Code's `allowed-tools: Bash(git add:*)` pre-approves exactly
// those commands for the command's turn: `git add` runs unasked, `git
// push` still asks, a dangerous command still needs a person, and a deny
// rule still wins. Another turn (no rules) asks for `git add` too.
func TestCommandAllowRulesHoldForTheTurn(t *testing.T) {
	ctx := context.Background()
	f := turnFixture(t, Options{}, "Bash(git add:*)", "Bash(git commit:*)")
	d, err := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "git add src/a.go && git commit -m x", Cwd: f.root()})
	if err != nil || !d.Allowed || d.Auto == nil || d.Auto.By != tools.AutoByRule || !strings.Contains(d.Auto.Detail, "allowed-tools") || len(f.host.asked) != 0 {
		t.Fatalf("git add under the command's rule: %+v %v (asked %d)", d, err, len(f.host.asked))
	}
	if d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "git push origin main", Cwd: f.root()}); d.Auto != nil || len(f.host.asked) != 1 {
		t.Fatalf("git push is not covered: %+v (asked %d)", d, len(f.host.asked))
	}
	// A dangerous command is never pre-approved by a command's rule,
	// even one naming it exactly.
	f = turnFixture(t, Options{}, "Bash(git clean -fdx)")
	if d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "git clean -fdx", Cwd: f.root()}); d.Auto != nil || len(f.host.asked) != 1 {
		t.Fatalf("dangerous under a command rule ran unasked: %+v (asked %d)", d, len(f.host.asked))
	}
	// Headless: the rule stands in for --approve; a dangerous command is
	// still refused.
	f = turnFixture(t, Options{Headless: true, Approve: "none"}, "Bash(git add:*)", "Bash(git clean -fdx)")
	if d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "git add .", Cwd: f.root()}); !d.Allowed {
		t.Fatalf("headless git add: %+v", d)
	}
	if d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "git clean -fdx", Cwd: f.root()}); d.Allowed {
		t.Fatalf("headless dangerous ran: %+v", d)
	}
	// A deny rule beats the command's allow.
	f = newFixture(t, map[string]any{"permissions.deny": []any{"Bash(git add:*)"}}, Options{})
	f.a = f.a.x.For(Turn{SessionID: "s1", ID: "t1", AllowRules: []string{"Bash(git add:*)"}})
	_ = os.MkdirAll(f.root(), 0o755)
	if d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "git add .", Cwd: f.root()}); d.Allowed || !strings.Contains(d.Reason, "denied") {
		t.Fatalf("deny rule: %+v", d)
	}
	// Without the command, the same call asks.
	f = turnFixture(t, Options{})
	if d, _ := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: "git add .", Cwd: f.root()}); d.Auto != nil || len(f.host.asked) != 1 {
		t.Fatalf("another turn: %+v (asked %d)", d, len(f.host.asked))
	}
}

// A PreToolUse hook's allow skips the question, as in Claude Code, but
// never for a dangerous command; its ask asks even where confirmation is
// turned off; neither applies without the hook.
func TestHookDecisionReachesTheApprover(t *testing.T) {
	allow := tools.WithHookDecision(context.Background(), tools.HookDecision{Decision: tools.HookAllow, Source: "./check.sh"})
	ask := tools.WithHookDecision(context.Background(), tools.HookDecision{Decision: tools.HookAsk, Reason: "deploys need a look"})
	f := newFixture(t, nil, Options{})
	d, err := f.a.ConfirmShell(allow, tools.ShellProposal{Command: "make deploy", Cwd: f.root()})
	if err != nil || !d.Allowed || d.Auto == nil || d.Auto.By != tools.AutoByHook || d.Auto.Detail != "./check.sh" || len(f.host.asked) != 0 {
		t.Fatalf("hook allow: %+v %v (asked %d)", d, err, len(f.host.asked))
	}
	if d, _ := f.a.ConfirmShell(allow, tools.ShellProposal{Command: "rm -rf /", Cwd: f.root()}); d.Auto != nil || len(f.host.asked) != 1 {
		t.Fatalf("hook allow on a dangerous command: %+v (asked %d)", d, len(f.host.asked))
	}
	off := newFixture(t, map[string]any{"confirmShellCommand": false, "confirmChanges": false}, Options{})
	if d, _ := off.a.ConfirmShell(ask, tools.ShellProposal{Command: "make deploy", Cwd: off.root()}); d.Auto != nil || len(off.host.asked) != 1 {
		t.Fatalf("hook ask with confirmation off: %+v (asked %d)", d, len(off.host.asked))
	}
	// Edits: allow applies unasked, ask asks although confirmChanges is off.
	root := f.a.x.opts.Roots[0]
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	p := tools.EditProposal{Path: filepath.Join(root, "a.txt"), RelPath: "a.txt", Proposed: "x\n", IsNew: true}
	if d, err := f.a.ConfirmEdit(allow, p); err != nil || !d.Accepted || d.Auto == nil || d.Auto.By != tools.AutoByHook {
		t.Fatalf("edit under hook allow: %+v %v", d, err)
	}
	before := len(off.host.asked)
	if _, err := off.a.ConfirmEdit(ask, p); err != nil || len(off.host.asked) != before+1 {
		t.Fatalf("edit under hook ask was not asked (%d): %v", len(off.host.asked), err)
	}
	// Headless: allow stands in for --approve; ask refuses (no one to ask).
	h := newFixture(t, nil, Options{Headless: true, Approve: "none"})
	if d, _ := h.a.ConfirmShell(allow, tools.ShellProposal{Command: "make deploy", Cwd: h.root()}); !d.Allowed {
		t.Fatalf("headless hook allow: %+v", d)
	}
	h = newFixture(t, nil, Options{Headless: true, Approve: "all"})
	if d, _ := h.a.ConfirmShell(ask, tools.ShellProposal{Command: "make deploy", Cwd: h.root()}); d.Allowed {
		t.Fatalf("headless hook ask ran: %+v", d)
	}
}
