package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
)

func shellCall(id, command string) scripted.Reply {
	return tc(id, "run_shell_command", `{"command":`+quoteJSON(command)+`}`)
}

func quoteJSON(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// victim is a directory outside the workspace that a dangerous command
// would delete.
func victim(t *testing.T, x *rv) string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(x.dir), "victim-"+filepath.Base(x.dir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestDangerousCommandNeedsAHumanUnderApproveAll(t *testing.T) {
	x := newRV(t, nil, true, "all")
	v := victim(t, x)
	x.mainScript(shellCall("s1", "rm -rf "+v), shellCall("s2", "touch made.txt"))
	sid := x.send("clean up")
	x.finish(sid)
	if _, err := os.Stat(v); err != nil {
		t.Fatal("a dangerous command ran under --approve all")
	}
	res := x.toolResults()
	if len(res) != 2 || !strings.Contains(res[0], "dangerous") || !strings.Contains(res[0], "headless runs never") {
		t.Fatalf("tool results %q", res)
	}
	if x.read("made.txt") != "" || !strings.Contains(res[1], "exit code 0") {
		t.Fatalf("the mutating command did not run under --approve all: %q", res[1])
	}

	// A user rule naming that exact command lets it run, inside the
	// sandbox: it cannot reach a folder outside the workspace.
	rule := config.Values{"permissions.allow": []any{"Bash(rm -rf " + v + ")"}}
	x3 := newRV(t, rule, true, "")
	x3.mainScript(shellCall("s1", "rm -rf "+v))
	x3.finish(x3.send("clean up"))
	if res := x3.toolResults(); len(res) != 1 || !strings.Contains(res[0], "sandbox: workspace-write") {
		if sandboxAvailable() {
			t.Fatalf("the allowed dangerous command did not run in the sandbox: %q", res)
		}
	} else if _, err := os.Stat(v); err != nil {
		t.Fatal("a sandboxed command deleted a folder outside the workspace")
	}
	// Without the sandbox the rule is all there is.
	x2 := newRV(t, config.Values{"permissions.allow": []any{"Bash(rm -rf " + v + ")"}, "sandbox.enabled": false}, true, "")
	x2.mainScript(shellCall("s1", "rm -rf "+v))
	x2.finish(x2.send("clean up"))
	if _, err := os.Stat(v); !os.IsNotExist(err) {
		t.Fatalf("the allowed dangerous command did not run: %q", x2.toolResults())
	}
}

func TestDangerousCommandShowsAnalysisInteractively(t *testing.T) {
	x := newRV(t, config.Values{"confirmShellCommand": false, "permissions.allow": []any{"Bash"}}, false, "")
	v := victim(t, x)
	x.mainScript(shellCall("s1", "rm -rf "+v))
	sid := x.send("clean up")
	c := x.confirm()
	if c.Kind != "shell" || c.Analysis == nil || c.Analysis.Class != "dangerous" || len(c.Analysis.Reasons) == 0 {
		t.Fatalf("confirmation %+v", c)
	}
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: false, Reason: "no"})
	x.finish(sid)
	if _, err := os.Stat(v); err != nil {
		t.Fatal("ran after the user said no")
	}
}

func TestShellToolHintRefused(t *testing.T) {
	x := newRV(t, nil, true, "all")
	x.write("main.go", "package main\n")
	x.mainScript(shellCall("s1", "cat main.go"), shellCall("s2", "cat Makefile || true"))
	x.finish(x.send("look"))
	res := x.toolResults()
	if !strings.Contains(res[0], "read_file") || !strings.Contains(res[0], "nothing was run") {
		t.Fatalf("%q", res[0])
	}
	if !strings.Contains(res[1], "exit code") {
		t.Fatalf("cat Makefile was refused: %q", res[1])
	}
}

func TestPermissionRuleOrder(t *testing.T) {
	settings := config.Values{
		"permissions.allow": []any{"Bash(touch *)", "Bash(ls*)", "Edit(src/**)"},
		"permissions.ask":   []any{"Bash(touch ask*)"},
		"permissions.deny":  []any{"Bash(touch secret*)", "Edit(src/private/**)"},
	}
	x := newRV(t, settings, true, "") // headless, approves nothing by itself
	x.write("src/a.txt", "a\n")
	x.write("src/private/p.txt", "p\n")
	x.write("docs/d.txt", "d\n")
	x.mainScript(
		shellCall("s1", "touch ok.txt"),
		shellCall("s2", "touch secret.txt"),
		shellCall("s3", "touch ask.txt"),
		shellCall("s4", "ls && touch ../x.txt"),
		shellCall("s5", "ls && mkdir newdir"),
		tc("r1", "read_file", `{"filePath":"src/a.txt"}`),
		tc("r2", "read_file", `{"filePath":"src/private/p.txt"}`),
		tc("r3", "read_file", `{"filePath":"docs/d.txt"}`),
		tc("w1", "write_file", `{"filePath":"src/a.txt","content":"A\n"}`),
		tc("w2", "write_file", `{"filePath":"src/private/p.txt","content":"P\n"}`),
		tc("w3", "write_file", `{"filePath":"docs/d.txt","content":"D\n"}`),
	)
	x.finish(x.send("go"))
	res := x.toolResults()
	res = append(res[:5], res[8:]...) // drop the reads
	if len(res) != 8 {
		t.Fatalf("%d results: %q", len(res), res)
	}
	exists := func(n string) bool { _, err := os.Stat(filepath.Join(x.dir, n)); return err == nil }
	checks := []struct {
		i    int
		want string
		ok   bool
	}{
		{0, "exit code 0", exists("ok.txt")},                                             // allow
		{1, "denied by your permission rule Bash(touch secret*)", !exists("secret.txt")}, // deny beats allow
		{2, "asks for confirmation", !exists("ask.txt")},                                 // ask beats allow
		{3, "dangerous", !exists("../x.txt")},                                            // a sub-command outside every rule
		{4, "does not approve commands", !exists("newdir")},                              // mkdir has no rule
		{5, "rote src/a.txt", x.read("src/a.txt") == "A\n"},
		{6, "denied by your permission rule Edit(src/private/**)", x.read("src/private/p.txt") == "p\n"},
		{7, "does not approve edits", x.read("docs/d.txt") == "d\n"},
	}
	for _, c := range checks {
		if !strings.Contains(res[c.i], c.want) || !c.ok {
			t.Errorf("result %d: %q (want %q, state ok=%v)", c.i, res[c.i], c.want, c.ok)
		}
	}
}

// An invalid rule is reported where it was written and left out; it no
// longer turns every command into a question (issue 16).
func TestInvalidPermissionRuleIsReportedNotAskedFor(t *testing.T) {
	x := newRV(t, config.Values{"permissions.deny": []any{"Bash(rm"}}, true, "all")
	probs := x.e.Approvals.PermissionProblems()
	if len(probs) != 1 || !strings.Contains(probs[0], "govibe.permissions.deny entry 1") || !strings.Contains(probs[0], `"Bash(rm"`) {
		t.Fatalf("problems %q", probs)
	}
	x.mainScript(shellCall("s1", "touch x.txt"))
	x.finish(x.send("go"))
	if res := x.toolResults(); !strings.Contains(res[0], "exit code 0") {
		t.Fatalf("%q", res)
	}
}

func TestAntiRepeat(t *testing.T) {
	x := newRV(t, nil, true, "all")
	x.mainScript(shellCall("a", "ls"), shellCall("b", "ls"), shellCall("c", "ls"),
		shellCall("d", "touch changed.txt"), shellCall("e", "ls"))
	x.finish(x.send("look"))
	res := x.toolResults()
	if len(res) != 5 {
		t.Fatalf("%q", res)
	}
	if !strings.Contains(res[0], "exit code 0") || !strings.Contains(res[1], "exit code 0") {
		t.Fatalf("%q", res[:2])
	}
	if !strings.Contains(res[2], "already ran twice") {
		t.Fatalf("the third identical run was not refused: %q", res[2])
	}
	if !strings.Contains(res[4], "exit code 0") {
		t.Fatalf("refused after the workspace changed: %q", res[4])
	}
}

var shellOn = config.Values{"shellCommandReview.enabled": true, "shellCommandReview.timeoutMs": float64(5000)}

func TestShellReviewEditorRewriteAndSecurityApproval(t *testing.T) {
	x := newRV(t, shellOn, false, "")
	x.mainScript(shellCall("s0", "echo first"), shellCall("s1", "touch a.txt"))
	x.script(review.KindShellEditor, scripted.Reply{Text: `{"command": "echo first", "reason": ""}`},
		scripted.Reply{Text: `{"command": "touch b.txt", "reason": "renamed"}`})
	x.script(review.KindShell, verdict(true))
	sid := x.send("make a file")
	// The reviewer reads the running item from the plan itself.
	running := scheduler.Plan{Goal: "mark", Current: 0, Phase: scheduler.PhaseScheduling, Items: []scheduler.Item{{Title: "create the marker file", Status: scheduler.Running}}}
	if err := sessionstate.Set(context.Background(), x.e.Store, sid, scheduler.TodoPlanKey, running); err != nil {
		t.Fatal(err)
	}
	c := x.confirm()
	if c.Command != "touch b.txt" || c.Review == nil || !c.Review.Approved || c.Analysis.Class != "mutating" {
		t.Fatalf("confirmation %+v review %+v", c, c.Review)
	}
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: true})
	x.finish(sid)
	if x.read("b.txt") == "" {
		if _, err := os.Stat(filepath.Join(x.dir, "b.txt")); err != nil {
			t.Fatal("the rewritten command did not run")
		}
	}
	sec := x.requests(string(review.KindShell))
	if len(sec) != 2 {
		t.Fatalf("%d security reviews", len(sec))
	}
	p := sec[1].Messages[1].Content
	for _, want := range []string{"touch b.txt", "touch a.txt", `1/1 "create the marker file"`, "$ echo first  (exit 0)", "mutating", "make a file"} {
		if !strings.Contains(p, want) {
			t.Errorf("security prompt lacks %q:\n%s", want, p)
		}
	}
}

func TestShellReviewRejectionAfterMaxAttempts(t *testing.T) {
	x := newRV(t, shellOn, false, "")
	x.mainScript(shellCall("s1", "touch x.txt"))
	x.script(review.KindShellEditor, scripted.Reply{Text: `{"command": "touch x.txt"}`})
	x.script(review.KindShell, verdict(false, "unrelated to the request"))
	sid := x.send("explain the code")
	x.finish(sid)
	x.noConfirm()
	if _, err := os.Stat(filepath.Join(x.dir, "x.txt")); err == nil {
		t.Fatal("a rejected command ran")
	}
	res := x.toolResults()
	if !strings.Contains(res[0], "security review rejected") || !strings.Contains(res[0], "unrelated to the request") {
		t.Fatalf("%q", res)
	}
	ed := x.requests(string(review.KindShellEditor))
	if len(ed) != 2 || len(x.requests(string(review.KindShell))) != 2 || !strings.Contains(ed[1].Messages[1].Content, "unrelated to the request") {
		t.Fatalf("want 2 rounds (maxAttempts), the second editor call seeing the problems")
	}
}

func TestShellReviewDangerousRewriteIsDropped(t *testing.T) {
	x := newRV(t, shellOn, true, "all")
	x.mainScript(shellCall("s1", "touch x.txt"))
	x.script(review.KindShellEditor, scripted.Reply{Text: `{"command": "touch x.txt && rm -rf /", "reason": "cleanup"}`})
	x.script(review.KindShell, verdict(true))
	x.finish(x.send("make x"))
	if _, err := os.Stat(filepath.Join(x.dir, "x.txt")); err != nil {
		t.Fatalf("the original command did not run: %q", x.toolResults())
	}
	if p := x.requests(string(review.KindShell))[0].Messages[1].Content; strings.Contains(p, "rm -rf") {
		t.Fatal("the dangerous rewrite reached the security review")
	}
}

func TestShellReviewUnavailable(t *testing.T) {
	settings := config.Values{"shellCommandReview.enabled": true, "shellCommandReview.timeoutMs": float64(300), "confirmShellCommand": false}
	// Interactive: it goes to the user even though confirmShellCommand is off.
	x := newRV(t, settings, false, "")
	x.mainScript(shellCall("s1", "touch x.txt"))
	hang := scripted.Reply{Text: "{}", Faults: []scripted.Fault{scripted.HangAfter(0), scripted.HangAfter(0), scripted.HangAfter(0), scripted.HangAfter(0), scripted.HangAfter(0)}}
	x.script(review.KindShellEditor, hang)
	x.script(review.KindShell, hang)
	sid := x.send("make x")
	c := x.confirm()
	if c.Review == nil || !strings.Contains(c.Review.Unavailable, "timed out") {
		t.Fatalf("%+v", c.Review)
	}
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: true})
	x.finish(sid)
	if _, err := os.Stat(filepath.Join(x.dir, "x.txt")); err != nil {
		t.Fatal("not run after the user allowed it")
	}
	// Headless: refused, even under --approve all.
	h := newRV(t, settings, true, "all")
	h.mainScript(shellCall("s1", "touch x.txt"))
	h.script(review.KindShellEditor, hang)
	h.script(review.KindShell, hang)
	h.finish(h.send("make x"))
	if res := h.toolResults(); !strings.Contains(res[0], "review unavailable") {
		t.Fatalf("%q", res)
	}
}

// TestWorkspaceRulesMayRestrictButNeverAllow: rules from the workspace's
// own settings can deny, but an allow rule there grants nothing.
func TestWorkspaceRulesMayRestrictButNeverAllow(t *testing.T) {
	settings := config.Values{
		"permissions.allow":           []any{"Bash(touch *)"},
		"permissions.workspace.allow": []any{"Bash(mkdir *)"},
		"permissions.workspace.deny":  []any{"Bash(touch blocked*)"},
	}
	x := newRV(t, settings, true, "") // headless, approves nothing by itself
	x.mainScript(
		shellCall("s1", "touch ok.txt"),
		shellCall("s2", "touch blocked.txt"),
		shellCall("s3", "mkdir granted"),
	)
	x.finish(x.send("go"))
	res := x.toolResults()
	exists := func(n string) bool { _, err := os.Stat(filepath.Join(x.dir, n)); return err == nil }
	if len(res) != 3 || !exists("ok.txt") {
		t.Fatalf("user allow rule: %q", res)
	}
	if !strings.Contains(res[1], "Bash(touch blocked*)") || exists("blocked.txt") {
		t.Fatalf("workspace deny rule: %q", res[1])
	}
	if exists("granted") || !strings.Contains(res[2], "does not approve commands") {
		t.Fatalf("a workspace allow rule granted a command: %q", res[2])
	}
}
