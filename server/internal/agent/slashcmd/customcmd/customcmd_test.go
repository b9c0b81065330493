package customcmd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func put(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func byName(cmds []Command) map[string]Command {
	m := map[string]Command{}
	for _, c := range cmds {
		m[c.Name] = c
	}
	return m
}

func TestLoadFormatsNamespacesAndPrecedence(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	put(t, root, ".govibe/commands/git/commit.md", "---\ndescription: Commit staged work\nargument-hint: <message>\nmodel: fast\nallowedTools: [run_shell_command]\n---\nCommit with message: $ARGUMENTS\n")
	put(t, root, ".govibe/commands/fix.md", "Fix issue #$1 in $2.\n")
	put(t, root, ".gemini/commands/explain.toml", "description = \"Explain code\"\nprompt = \"Explain {{args}} simply.\"\n")
	put(t, root, ".github/prompts/review.prompt.md", "---\ndescription: Review a file\ntools: ['read_file']\n---\nReview ${file} for ${input:focus:what to look at}.\n")
	put(t, root, ".claude/commands/deploy.md", "---\nallowed-tools: Bash(git:*)\n---\n# Deploy the app\nRun the deploy.\n")
	put(t, home, ".govibe/commands/fix.md", "user fix $ARGUMENTS\n")
	put(t, home, ".govibe/commands/mine.md", "mine\n")
	put(t, root, ".govibe/commands/help.md", "custom help\n")
	put(t, root, ".govibe/commands/notes.txt", "ignored\n")

	cmds, problems, conflicts := Load(Dirs(home, []string{root}, true), func(n string) bool { return n == "help" })
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	m := byName(cmds)
	for _, n := range []string{"git:commit", "fix", "explain", "review", "deploy", "mine", "help"} {
		if _, ok := m[n]; !ok {
			t.Errorf("/%s not loaded (have %v)", n, m)
		}
	}
	if _, ok := m["notes"]; ok {
		t.Error("a .txt file became a command")
	}
	c := m["git:commit"]
	if c.Description != "Commit staged work" || c.ArgumentHint != "<message>" || c.Model != "fast" || strings.Join(c.AllowedTools, ",") != "run_shell_command" {
		t.Fatalf("frontmatter: %+v", c)
	}
	if m["fix"].Source != "project" || m["deploy"].Description != "Deploy the app" || strings.Join(m["deploy"].AllowedTools, ",") != "Bash(git:*)" {
		t.Fatalf("precedence or defaults: %+v %+v", m["fix"], m["deploy"])
	}
	if len(conflicts) != 2 {
		t.Fatalf("want the user /fix shadowed and /help replacing a built-in, got %v", conflicts)
	}
	// Untrusted: only the user's commands.
	cmds, _, _ = Load(Dirs(home, []string{root}, false), nil)
	if m = byName(cmds); len(m) != 2 || m["fix"].Source != "user" {
		t.Fatalf("untrusted workspace loaded project commands: %v", m)
	}
}

func TestExpand(t *testing.T) {
	md := Command{Name: "fix", Format: FormatMarkdown, Template: "Fix #$1 in $2 ($ARGUMENTS)"}
	if got, _ := md.Expand(`12 "src/a b.go"`, Editor{}); got != `Fix #12 in src/a b.go (12 "src/a b.go")` {
		t.Fatalf("md: %q", got)
	}
	plain := Command{Name: "p", Format: FormatMarkdown, Template: "Do it."}
	if got, _ := plain.Expand("carefully", Editor{}); got != "Do it.\n\ncarefully" {
		t.Fatalf("arguments appended when the template has no placeholder: %q", got)
	}
	tm := Command{Name: "e", Format: FormatTOML, Template: "Explain {{args}}."}
	if got, _ := tm.Expand("closures", Editor{}); got != "Explain closures." {
		t.Fatalf("toml: %q", got)
	}
	pr := Command{Name: "review", Format: FormatPrompt, Template: "Review ${file} (${selection}) for ${input:focus:hint} and ${input:depth}; again ${input:focus}."}
	got, err := pr.Expand("depth=deep security", Editor{File: "a.go", Selection: "x := 1"})
	if err != nil || got != "Review a.go (x := 1) for security and deep; again security." {
		t.Fatalf("prompt: %q %v", got, err)
	}
	_, err = pr.Expand("", Editor{})
	var mi *MissingInputs
	if !errors.As(err, &mi) || strings.Join(mi.Names, ",") != "depth,focus" || !strings.Contains(err.Error(), "name=value") {
		t.Fatalf("missing inputs: %v", err)
	}
}

func TestMalformedFilesReported(t *testing.T) {
	root := t.TempDir()
	put(t, root, ".govibe/commands/bad.md", "---\ndescription: [x,\n  y\n---\nbody\n")
	put(t, root, ".govibe/commands/empty.md", "---\ndescription: d\n---\n\n")
	put(t, root, ".gemini/commands/bad.toml", "description = \"x\"\nprompt = \n")
	put(t, root, ".gemini/commands/noprompt.toml", "description = \"x\"\n")
	put(t, root, ".govibe/commands/big.md", strings.Repeat("x", maxFileSize+1))
	_, problems, _ := Load(Dirs("", []string{root}, true), nil)
	if len(problems) != 5 {
		t.Fatalf("want 5 problems, got %v", problems)
	}
	for _, p := range problems {
		if strings.HasSuffix(p.Path, "bad.md") && (p.Line < 2 || p.Line > 3) {
			t.Errorf("bad.md line %d", p.Line)
		}
		if strings.HasSuffix(p.Path, "bad.toml") && p.Line != 2 {
			t.Errorf("bad.toml line %d: %s", p.Line, p.Message)
		}
	}
}

// TestTOMLCommandsNamespacedWithArguments: a Gemini-style command in a
// subfolder is /folder:name; {{args}} takes the arguments, and a prompt
// without it gets them appended, as Gemini CLI does.
func TestTOMLCommandsNamespacedWithArguments(t *testing.T) {
	root := t.TempDir()
	put(t, root, ".govibe/commands/git/ship.toml", "description = \"Ship a release\"\nprompt = \"\"\"\nRun the release checklist for {{args}}.\nThen tag {{args}}.\n\"\"\"\n")
	put(t, root, ".gemini/commands/ops/deploy/now.toml", "prompt = \"Deploy now.\"\n")
	cmds, problems, _ := Load(Dirs("", []string{root}, true), nil)
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	m := byName(cmds)
	ship, ok := m["git:ship"]
	if !ok || ship.Format != FormatTOML || ship.Description != "Ship a release" {
		t.Fatalf("/git:ship: %+v (have %v)", ship, m)
	}
	if got, _ := ship.Expand("v2.1", Editor{}); got != "Run the release checklist for v2.1.\nThen tag v2.1.\n" {
		t.Fatalf("{{args}}: %q", got)
	}
	now, ok := m["ops:deploy:now"]
	if !ok {
		t.Fatalf("nested folders do not namespace: %v", m)
	}
	if got, _ := now.Expand("to staging", Editor{}); got != "Deploy now.\n\nto staging" {
		t.Fatalf("arguments without {{args}}: %q", got)
	}
}

// TestConflictsNameTheWinner: project beats user and user beats built-in,
// and each report names the command that lost and the one that won.
func TestConflictsNameTheWinner(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	put(t, root, ".govibe/commands/fix.md", "project fix\n")
	put(t, home, ".govibe/commands/fix.md", "user fix\n")
	put(t, home, ".govibe/commands/cost.md", "user cost\n")
	put(t, root, ".gemini/commands/fix.toml", "prompt = \"gemini fix\"\n")
	cmds, _, conflicts := Load(Dirs(home, []string{root}, true), func(n string) bool { return n == "cost" })
	m := byName(cmds)
	if m["fix"].Template != "project fix" || m["fix"].Source != "project" || m["cost"].Source != "user" {
		t.Fatalf("winners: fix %+v, cost %+v", m["fix"], m["cost"])
	}
	var got []string
	for _, c := range conflicts {
		got = append(got, c.Error())
	}
	all := strings.Join(got, "\n")
	projectFix := filepath.Join(root, ".govibe", "commands", "fix.md")
	for _, want := range []string{
		filepath.Join(home, ".govibe", "commands", "fix.md") + ": /fix is already defined by the project command " + projectFix + ", which wins",
		filepath.Join(root, ".gemini", "commands", "fix.toml") + ": /fix is already defined by the project command " + projectFix + ", which wins",
		"/cost replaces the built-in command of that name",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no conflict %q in\n%s", want, all)
		}
	}
	if len(conflicts) != 3 {
		t.Fatalf("%d conflicts:\n%s", len(conflicts), all)
	}
}

// TestBadFilesReportedWithTheirLine: a malformed header names its line
// exactly, and a file whose name cannot be typed as a command is reported
// rather than skipped; hidden files are not commands.
func TestBadFilesReportedWithTheirLine(t *testing.T) {
	root := t.TempDir()
	put(t, root, ".govibe/commands/bad.md", "---\ndescription: fine\nargument-hint: [x,\n   y\n---\nbody\n")
	put(t, root, ".govibe/commands/fix bug.md", "Fix it.\n")
	put(t, root, ".govibe/commands/.#fix.md", "lock file\n")
	cmds, problems, _ := Load(Dirs("", []string{root}, true), nil)
	if len(cmds) != 0 || len(problems) != 2 {
		t.Fatalf("commands %v, problems %v", cmds, problems)
	}
	for _, p := range problems {
		switch filepath.Base(p.Path) {
		case "bad.md":
			if p.Line != 3 {
				t.Errorf("bad.md: line %d, want 3: %s", p.Line, p.Message)
			}
		case "fix bug.md":
			if !strings.Contains(p.Message, "/fix bug is not a command name") {
				t.Errorf("fix bug.md: %s", p.Message)
			}
		default:
			t.Errorf("unexpected problem %v", p)
		}
	}
}
