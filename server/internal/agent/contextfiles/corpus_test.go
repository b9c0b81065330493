package contextfiles

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/test/corpus"
)

// The compatibility corpus (testdata/compat, package corpus): real context
// files, loaded the way their own tools document.

func copyIn(t *testing.T, root, rel, src string) {
	t.Helper()
	write(t, root, rel, corpus.Read(t, src))
}

func find(files []File, rel string) (File, bool) {
	for _, f := range files {
		if f.Rel == rel {
			return f, true
		}
	}
	return File{}, false
}

// TestCorpusClaudeImports: the memory page's two examples. `@AGENTS.md`
// pulls the AGENTS.md in; `See @README … @package.json … @docs/git-instructions.md`
// pulls the three files in, relative to the CLAUDE.md.
func TestCorpusClaudeImports(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	root := t.TempDir()
	copyIn(t, root, "CLAUDE.md", "anthropics/claude-code-docs/memory/agents-import/CLAUDE.md")
	write(t, root, "AGENTS.md", "Run `make check` before you commit.")
	files, problems := Load([]string{root}, nil)
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	c, _ := find(files, "CLAUDE.md")
	if !strings.Contains(c.Content, "<!-- Imported from: AGENTS.md -->\nRun `make check` before you commit.\n<!-- End of import from: AGENTS.md -->") || !strings.Contains(c.Content, "Use plan mode") {
		t.Fatalf("@AGENTS.md not expanded:\n%s", c.Content)
	}

	sub := t.TempDir()
	copyIn(t, sub, "web/CLAUDE.md", "anthropics/claude-code-docs/memory/imports/CLAUDE.md")
	write(t, sub, "web/README", "Overview text.")
	write(t, sub, "web/package.json", `{"scripts":{"test":"vitest"}}`)
	write(t, sub, "web/docs/git-instructions.md", "Rebase, never merge.")
	files, problems = ForTouched([]string{sub}, []string{filepath.Join(sub, "web", "src", "a.ts")})
	if len(problems) != 0 || len(files) != 1 {
		t.Fatalf("%v %v", names(files), problems)
	}
	for _, want := range []string{"Overview text.", `"test":"vitest"`, "Rebase, never merge.", "Imported from: web/docs/git-instructions.md"} {
		if !strings.Contains(files[0].Content, want) {
			t.Fatalf("missing %q:\n%s", want, files[0].Content)
		}
	}
}

// TestCorpusCopilotInstructions: awesome-copilot's applyTo values, a
// brace list and a comma-separated list with spaces.
func TestCorpusCopilotInstructions(t *testing.T) {
	root := t.TempDir()
	copyIn(t, root, ".github/instructions/pcf-tooling.instructions.md", "github/awesome-copilot/instructions/pcf-tooling.instructions.md")
	copyIn(t, root, ".github/instructions/azure-functions-typescript.instructions.md", "github/awesome-copilot/instructions/azure-functions-typescript.instructions.md")
	files, problems := Load([]string{root}, nil)
	if len(problems) != 0 || len(files) != 2 {
		t.Fatalf("%s %v", names(files), problems)
	}
	cases := []struct {
		path string
		want string
	}{
		{"src/Control/index.tsx", "pcf-tooling"},
		{"src/fn/handler.ts", "azure-functions-typescript,pcf-tooling"},
		{"Control.pcfproj", "pcf-tooling"},
		{"api/host.json", "azure-functions-typescript,pcf-tooling"},
		{"api/index.js", "azure-functions-typescript,pcf-tooling"},
		{"main.go", ""},
	}
	for _, c := range cases {
		var got []string
		for _, f := range Applicable(files, []string{c.path}) {
			got = append(got, strings.TrimSuffix(filepath.Base(f.Rel), ".instructions.md"))
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("%s: attached %v, want %s", c.path, got, c.want)
		}
	}
}

// TestCorpusCursorRules: Task Master's rules write `globs: **/*` and
// `globs: .cursor/rules/*.mdc` unquoted; both load, alwaysApply wins.
func TestCorpusCursorRules(t *testing.T) {
	root := t.TempDir()
	copyIn(t, root, ".cursor/rules/glossary.mdc", "eyaltoledano/claude-task-master/.cursor/rules/glossary.mdc")
	copyIn(t, root, ".cursor/rules/cursor_rules.mdc", "eyaltoledano/claude-task-master/.cursor/rules/cursor_rules.mdc")
	files, problems := Load([]string{root}, nil)
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	got := Applicable(files, nil)
	if names(got) != ".cursor/rules/cursor_rules.mdc,.cursor/rules/glossary.mdc" {
		t.Fatalf("always-apply rules: %s", names(got))
	}
	if g, _ := find(got, ".cursor/rules/glossary.mdc"); !strings.HasPrefix(g.Content, "# Glossary of Task Master Cursor Rules") {
		t.Fatalf("frontmatter left in the body: %q", g.Content[:40])
	}
}

// TestCorpusClineRules: the same project's rules as one file (an early
// commit) and as a folder (now).
func TestCorpusClineRules(t *testing.T) {
	root := t.TempDir()
	copyIn(t, root, ".clinerules", "37108/cline-todo-sample/at-42661f1/.clinerules")
	files, _ := Load([]string{root}, nil)
	if names(files) != ".clinerules" || !strings.Contains(files[0].Content, "## セキュリティ") {
		t.Fatalf("file form: %s", names(files))
	}
	root = t.TempDir()
	for _, n := range []string{"communication", "project", "security"} {
		copyIn(t, root, ".clinerules/"+n+".md", "37108/cline-todo-sample/.clinerules/"+n+".md")
	}
	write(t, root, ".clinerules/notes.json", "{}")
	files, _ = Load([]string{root}, nil)
	if names(files) != ".clinerules/communication.md,.clinerules/project.md,.clinerules/security.md" {
		t.Fatalf("folder form: %s", names(files))
	}
}
