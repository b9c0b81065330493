package permission

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

var ws = shellcheck.Workspace{Roots: []string{"/ws"}, Home: "/home/u"}

func mustPolicy(t *testing.T, user, workspace Settings) *Policy {
	t.Helper()
	p, warnings, err := NewPolicy(user, workspace, ws)
	if err != nil {
		t.Fatal(err)
	}
	if len(workspace.Allow) == 0 && len(warnings) > 0 {
		t.Fatalf("unexpected warnings %q", warnings)
	}
	return p
}

func bash(cmd string) Action { return Action{Tool: ToolBash, Command: cmd} }

func TestWorkspaceCannotAllow(t *testing.T) {
	p, warnings, err := NewPolicy(
		Settings{Allow: []string{"Bash(ls*)"}},
		Settings{Allow: []string{"Bash(rm*)", "Edit(**)"}, Deny: []string{"Bash(git push*)"}, Ask: []string{"Bash(npm install*)"}},
		ws)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], `"Bash(rm*)"`) || !strings.Contains(warnings[1], `"Edit(**)"`) {
		t.Fatalf("warnings = %q", warnings)
	}
	if len(p.Allow) != 1 || p.Allow[0].String() != "Bash(ls*)" || p.Allow[0].Source != "user" {
		t.Fatalf("allow = %+v", p.Allow)
	}
	if d := p.Evaluate(bash("rm x")); d.Verdict != None {
		t.Fatalf("workspace allow took effect: %+v", d)
	}
	if d := p.Evaluate(Action{Tool: ToolEdit, Path: "/ws/a.go"}); d.Verdict != None {
		t.Fatalf("workspace Edit allow took effect: %+v", d)
	}
	if d := p.Evaluate(bash("git push origin main")); d.Verdict != Deny || d.Rule.Source != "workspace" {
		t.Fatalf("workspace deny ignored: %+v", d)
	}
	if d := p.Evaluate(bash("npm install left-pad")); d.Verdict != Ask || d.Rule.Source != "workspace" {
		t.Fatalf("workspace ask ignored: %+v", d)
	}
}

// An invalid rule is reported where it was written (setting, entry,
// file) and left out; the valid rules keep working, so one typo does not
// turn every command into a question.
func TestInvalidRulesAreReportedWhereWritten(t *testing.T) {
	p, _, err := NewPolicy(
		Settings{Deny: []string{"Bash(rm*)", "Bash(", "Edit([)"}},
		Settings{Ask: []string{"Glob(x)"}, Allow: []string{"Bash()"}},
		ws)
	if err == nil {
		t.Fatal("invalid rules were not reported")
	}
	msg := err.Error()
	for _, want := range []string{`govibe.permissions.deny entry 2 in your user settings`, `"Bash("`, `govibe.permissions.deny entry 3`, `"Edit([)"`,
		`govibe.permissions.ask entry 1 in the workspace settings`, `"Glob(x)"`, `govibe.permissions.allow entry 1 in the workspace settings`, `"Bash()"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %s", msg, want)
		}
	}
	var rp RuleProblem
	if !errors.As(err, &rp) || rp.Setting() != "govibe.permissions.deny" || rp.Index != 2 || rp.Rule != "Bash(" {
		t.Fatalf("first problem %+v", rp)
	}
	if d := p.Evaluate(bash("rm -rf build")); d.Verdict != Deny {
		t.Fatalf("the valid deny rule stopped applying: %+v", d)
	}
	if d := p.Evaluate(bash("ls")); d.Verdict != None {
		t.Fatalf("an unrelated command is affected: %+v", d)
	}
}

func TestEvaluationOrder(t *testing.T) {
	p := mustPolicy(t, Settings{
		Allow: []string{"Bash(git *)", "Bash(git log*)"},
		Ask:   []string{"Bash(git push*)"},
		Deny:  []string{"Bash(git push --force*)", "Bash(git push*)"},
	}, Settings{})
	cases := []struct {
		cmd  string
		want Verdict
		rule string
	}{
		{"git push --force origin", Deny, "Bash(git push --force*)"}, // first deny wins
		{"git push origin", Deny, "Bash(git push*)"},                 // deny before ask
		{"git log --oneline", Allow, "Bash(git *)"},                  // first allow wins
		{"git status", Allow, "Bash(git *)"},
		{"ls", None, ""},
	}
	for _, c := range cases {
		d := p.Evaluate(bash(c.cmd))
		if d.Verdict != c.want || (c.rule != "" && d.Rule.String() != c.rule) {
			t.Errorf("%q: %s by %q, want %s by %q", c.cmd, d.Verdict, d.Rule.String(), c.want, c.rule)
		}
	}
	askFirst := mustPolicy(t, Settings{Allow: []string{"Bash(npm *)"}, Ask: []string{"Bash(npm publish*)"}}, Settings{})
	if d := askFirst.Evaluate(bash("npm publish")); d.Verdict != Ask {
		t.Errorf("ask must beat allow: %+v", d)
	}
}

func TestBashSubCommands(t *testing.T) {
	p := mustPolicy(t, Settings{
		Allow: []string{"Bash(ls*)", "Bash(npm test*)", "Bash(git log*)", "Bash(head*)", "Bash(npm run test:*)", "Bash(cat *)"},
		Deny:  []string{"Bash(rm*)", "Bash(curl*)"},
	}, Settings{})
	cases := []struct {
		cmd  string
		want Verdict
	}{
		{"ls -la", Allow},
		{"ls && rm -rf x", Deny},
		{"ls && touch x", None},
		{"ls; bash -c 'rm x'", Deny},
		{"echo $(rm x)", Deny},
		{"timeout 5 rm x", Deny},
		{"find . -exec rm {} +", Deny},
		{"ls | xargs rm", Deny},
		{"'r''m' -f x", Deny},
		{"r\\m -f x", Deny},
		{"git log | head -5", Allow},
		{"git log | head -5 | wc -l", None},
		{"cd web && npm test", Allow},
		{"npm test > out.txt", None},
		{"npm test 2>&1 >/dev/null", Allow},
		{"ls \"$DIR\"", None},
		{"$X", None},
		{"npm run test", Allow},
		{"npm run test -- --watch", Allow},
		{"npm run testx", None},
		{"cat", Allow},
		{"cat a.txt", Allow},
		{"catx", None},
		{"rm 'oops", Deny},
		{"ls 'oops", None},
		{"", None},
		{"cd src", None},
	}
	for _, c := range cases {
		if d := p.Evaluate(bash(c.cmd)); d.Verdict != c.want {
			t.Errorf("%q: %s (rule %q, command %q), want %s", c.cmd, d.Verdict, d.Rule.String(), d.Command, c.want)
		}
	}
	d := p.Evaluate(bash("ls && bash -c 'rm -rf x'"))
	if d.Command != "rm -rf x" || d.Rule.String() != "Bash(rm*)" {
		t.Errorf("decision names %q by %q", d.Command, d.Rule.String())
	}
}

func TestBareBashRules(t *testing.T) {
	all := mustPolicy(t, Settings{Allow: []string{"Bash"}}, Settings{})
	if d := all.Evaluate(bash("ls && make")); d.Verdict != Allow {
		t.Errorf("Bash allow: %+v", d)
	}
	none := mustPolicy(t, Settings{Allow: []string{"Bash(ls*)"}, Deny: []string{"Bash(*)"}}, Settings{})
	if d := none.Evaluate(bash("ls")); d.Verdict != Deny {
		t.Errorf("Bash(*) deny: %+v", d)
	}
}

func TestPrecomputedAnalysisIsUsed(t *testing.T) {
	p := mustPolicy(t, Settings{Allow: []string{"Bash(ls*)"}}, Settings{})
	an := shellcheck.Analysis{Commands: []shellcheck.SubCommand{{Name: "rm", Args: []string{"x"}, Literal: true}}}
	if d := p.Evaluate(Action{Tool: ToolBash, Command: "ls", Analysis: &an}); d.Verdict != None {
		t.Errorf("analysis ignored: %+v", d)
	}
}

func TestPathRules(t *testing.T) {
	p := mustPolicy(t, Settings{
		Allow: []string{"Edit(src/**)", "Read(**)", "Read(//etc/hosts)"},
		Deny:  []string{"Edit(**/*.env)", "Read(~/.ssh/**)", "Edit(/secrets/**)"},
	}, Settings{})
	cases := []struct {
		tool, path string
		want       Verdict
	}{
		{ToolEdit, "/ws/src/a/b.go", Allow},
		{ToolEdit, "src/x.go", Allow},
		{ToolEdit, "/ws/lib/x.go", None},
		{ToolEdit, "/other/src/x.go", None},
		{ToolEdit, "/ws/src/.env", Deny},
		{ToolEdit, "/ws/secrets/key.pem", Deny},
		{ToolEdit, "/ws/src/../secrets/key.pem", Deny},
		{ToolRead, "/ws/any/deep/file.txt", Allow},
		{ToolRead, "/etc/hosts", Allow},
		{ToolRead, "/etc/passwd", None},
		{ToolRead, "/home/u/.ssh/id_rsa", Deny},
		{ToolRead, "", None},
	}
	for _, c := range cases {
		if d := p.Evaluate(Action{Tool: c.tool, Path: c.path}); d.Verdict != c.want {
			t.Errorf("%s %q: %s by %q, want %s", c.tool, c.path, d.Verdict, d.Rule.String(), c.want)
		}
	}
	multi, _, err := NewPolicy(Settings{Allow: []string{"Edit(docs/**)"}}, Settings{}, shellcheck.Workspace{Roots: []string{"/a", "/b"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := multi.Evaluate(Action{Tool: ToolEdit, Path: "/b/docs/x.md"}); d.Verdict != Allow {
		t.Errorf("second root: %+v", d)
	}
	noHome, _, _ := NewPolicy(Settings{Deny: []string{"Read(~/.ssh/**)"}}, Settings{}, shellcheck.Workspace{Roots: []string{"/ws"}})
	if d := noHome.Evaluate(Action{Tool: ToolRead, Path: "/home/u/.ssh/id_rsa"}); d.Verdict != None {
		t.Errorf("~ without a home directory: %+v", d)
	}
}

func TestWebFetchAndOtherTools(t *testing.T) {
	p := mustPolicy(t, Settings{
		Allow: []string{"WebFetch(domain:go.dev)", "WebSearch", "mcp__docs__lookup"},
		Deny:  []string{"WebFetch(domain:evil.example)"},
	}, Settings{})
	cases := []struct {
		a    Action
		want Verdict
	}{
		{Action{Tool: ToolWebFetch, URL: "https://go.dev/doc"}, Allow},
		{Action{Tool: ToolWebFetch, URL: "https://pkg.go.dev/fmt"}, Allow},
		{Action{Tool: ToolWebFetch, URL: "https://GO.DEV./x"}, Allow},
		{Action{Tool: ToolWebFetch, URL: "https://evilgo.dev"}, None},
		{Action{Tool: ToolWebFetch, URL: "https://go.dev.evil.com"}, None},
		{Action{Tool: ToolWebFetch, URL: "https://sub.evil.example/x"}, Deny},
		{Action{Tool: ToolWebFetch, URL: "::not a url"}, None},
		{Action{Tool: "WebSearch"}, Allow},
		{Action{Tool: "mcp__docs__lookup"}, Allow},
		{Action{Tool: "mcp__docs__write"}, None},
	}
	for _, c := range cases {
		if d := p.Evaluate(c.a); d.Verdict != c.want {
			t.Errorf("%+v: %s, want %s", c.a, d.Verdict, c.want)
		}
	}
}

func TestVerdictString(t *testing.T) {
	for v, want := range map[Verdict]string{None: "none", Allow: "allow", Ask: "ask", Deny: "deny", Verdict(9): "Verdict(9)"} {
		if v.String() != want {
			t.Errorf("%d: %q", int(v), v.String())
		}
	}
}

func TestConcurrentEvaluate(t *testing.T) {
	p := mustPolicy(t, Settings{Allow: []string{"Bash(ls*)", "Edit(**)"}, Deny: []string{"Bash(rm*)"}}, Settings{})
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if d := p.Evaluate(bash("ls && rm x")); d.Verdict != Deny {
					errs <- d.Verdict.String()
				}
				if d := p.Evaluate(Action{Tool: ToolEdit, Path: "/ws/a.go"}); d.Verdict != Allow {
					errs <- d.Verdict.String()
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent evaluation gave %s", e)
	}
}
