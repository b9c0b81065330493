package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	builtin "github.com/govibe/govibe/skills"
)

func writeSkill(t *testing.T, dir, name, content string, extra map[string]string) string {
	t.Helper()
	d := filepath.Join(dir, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "SKILL.md"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, c := range extra {
		full := filepath.Join(d, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(c), mode); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func skillMD(name, desc, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n" + body + "\n"
}

type layout struct{ root, home string }

func newLayout(t *testing.T) layout {
	return layout{root: t.TempDir(), home: t.TempDir()}
}

func (l layout) load(trusted bool) *Catalog {
	return Load(Dirs(l.home, []string{l.root}, builtin.FS), trusted)
}

func TestBuiltinsLoadAndAreValid(t *testing.T) {
	c := Load(Dirs("", nil, builtin.FS), false)
	if len(c.Problems) != 0 {
		t.Fatalf("built-in skills have problems: %v", c.Problems)
	}
	for _, n := range []string{"spec-driven", "code-reviewer", "memory-bootstrap"} {
		s, ok := c.Get(n)
		if !ok || s.Source != SourceBuiltin || s.Instruction == "" {
			t.Fatalf("built-in %s: %+v", n, s)
		}
	}
	s, _ := c.Get("spec-driven")
	files, _ := s.Files()
	if strings.Join(files, ",") != "validation.md" {
		t.Fatalf("spec-driven files: %v", files)
	}
	if data, err := s.ReadFile("validation.md"); err != nil || !strings.Contains(string(data), "SHALL") {
		t.Fatalf("read built-in file: %v", err)
	}
}

func TestPrecedenceAndShadowing(t *testing.T) {
	l := newLayout(t)
	writeSkill(t, filepath.Join(l.root, ".govibe", "skills"), "code-reviewer", skillMD("code-reviewer", "project reviewer", "project body"), nil)
	writeSkill(t, filepath.Join(l.home, ".govibe", "skills"), "code-reviewer", skillMD("code-reviewer", "user reviewer", "user body"), nil)
	writeSkill(t, filepath.Join(l.home, ".govibe", "skills"), "mine", skillMD("mine", "user skill", "body"), nil)
	writeSkill(t, filepath.Join(l.root, ".claude", "skills"), "mine", skillMD("mine", "claude copy", "body"), nil)
	writeSkill(t, filepath.Join(l.home, ".copilot", "skills"), "copilot-only", "---\ndescription: no name given\nlicense: MIT\n---\nbody\n", nil)

	c := l.load(true)
	if s, _ := c.Get("code-reviewer"); s.Source != SourceProject || s.Instruction != "project body" {
		t.Fatalf("project must win: %+v", s)
	}
	if s, _ := c.Get("mine"); s.Source != SourceUser {
		t.Fatalf("user beats compat: %+v", s)
	}
	if s, ok := c.Get("copilot-only"); !ok || s.Source != SourceUserCompat {
		t.Fatalf("a compat skill without a name takes its folder's: %+v %v", s, ok)
	}
	shadowed := 0
	for _, p := range c.Skipped {
		if strings.Contains(p.Message, "shadowed") {
			shadowed++
		}
	}
	if shadowed != 3 { // user reviewer, built-in reviewer, claude "mine"
		t.Fatalf("want 3 shadowed reports, got %v", c.Skipped)
	}
}

func TestTrustGating(t *testing.T) {
	l := newLayout(t)
	writeSkill(t, filepath.Join(l.root, ".govibe", "skills"), "deploy", skillMD("deploy", "deploys", "run it"), nil)
	writeSkill(t, filepath.Join(l.root, ".github", "skills"), "scripted", skillMD("scripted", "has a script", "run x.sh"), map[string]string{"x.sh": "#!/bin/sh\nid\n"})
	writeSkill(t, filepath.Join(l.root, ".claude", "skills"), "tooled", "---\nname: tooled\ndescription: widens tools\nallowed-tools: Bash, Read\n---\nbody\n", nil)
	writeSkill(t, filepath.Join(l.root, ".OpenVibe", "skills"), "plain", skillMD("plain", "just words", "be nice"), map[string]string{"docs/a.md": "doc"})

	c := l.load(false)
	for _, n := range []string{"deploy", "scripted", "tooled"} {
		if _, ok := c.Get(n); ok {
			t.Errorf("%s loaded in an untrusted workspace", n)
		}
	}
	if _, ok := c.Get("plain"); !ok {
		t.Errorf("a plain-text compat skill loads untrusted")
	}
	if len(c.Skipped) != 3 {
		t.Errorf("want 3 skipped with reasons, got %v", c.Skipped)
	}
	c = l.load(true)
	for _, n := range []string{"deploy", "scripted", "tooled", "plain"} {
		if _, ok := c.Get(n); !ok {
			t.Errorf("%s not loaded in a trusted workspace", n)
		}
	}
	if s, _ := c.Get("tooled"); strings.Join(s.AllowedTools, ",") != "Bash,Read" {
		t.Errorf("allowed-tools: %v", s.AllowedTools)
	}
}

func TestMalformedFrontmatterReportsLine(t *testing.T) {
	l := newLayout(t)
	dir := filepath.Join(l.home, ".govibe", "skills")
	writeSkill(t, dir, "bad-yaml", "---\nname: bad-yaml\ndescription: [unclosed\n---\nbody\n", nil)
	writeSkill(t, dir, "no-desc", "---\nname: no-desc\n---\nbody\n", nil)
	writeSkill(t, dir, "no-front", "just text\n", nil)
	writeSkill(t, dir, "empty-body", "---\nname: empty-body\ndescription: d\n---\n\n", nil)
	writeSkill(t, dir, "BadName", "---\nname: Bad Name\ndescription: d\n---\nb\n", nil)
	c := l.load(true)
	want := map[string]int{"bad-yaml": 3, "no-desc": 2, "no-front": 1, "empty-body": 5, "BadName": 2}
	if len(c.Problems) != len(want) {
		t.Fatalf("problems: %v", c.Problems)
	}
	for _, p := range c.Problems {
		folder := filepath.Base(filepath.Dir(p.Path))
		if p.Line != want[folder] {
			t.Errorf("%s: line %d, want %d (%s)", folder, p.Line, want[folder], p.Message)
		}
		if !strings.Contains(p.Error(), "SKILL.md:") {
			t.Errorf("the report names the file and line: %s", p.Error())
		}
	}
}

func TestReadFileSandbox(t *testing.T) {
	l := newLayout(t)
	dir := filepath.Join(l.home, ".govibe", "skills")
	os.WriteFile(filepath.Join(l.home, "secret.txt"), []byte("secret"), 0o600)
	d := writeSkill(t, dir, "docs", skillMD("docs", "has docs", "read docs/guide.md"), map[string]string{"docs/guide.md": "guide", "big.txt": strings.Repeat("x", maxReadSize+10)})
	os.Symlink(filepath.Join(l.home, "secret.txt"), filepath.Join(d, "link.txt"))
	os.Symlink(l.home, filepath.Join(d, "homelink"))
	c := l.load(true)
	s, _ := c.Get("docs")
	if data, err := s.ReadFile("docs/guide.md"); err != nil || string(data) != "guide" {
		t.Fatalf("inside: %q %v", data, err)
	}
	if data, err := s.ReadFile("./docs/../docs/guide.md"); err != nil || string(data) != "guide" {
		t.Fatalf("cleaned path inside: %q %v", data, err)
	}
	for _, bad := range []string{"../../secret.txt", "/etc/passwd", "link.txt", "homelink/secret.txt", "..", "", "docs/../../x", `..\..\secret.txt`} {
		data, err := s.ReadFile(bad)
		if err == nil || strings.Contains(string(data), "secret") {
			t.Errorf("%q: escaped the skill folder (%q, %v)", bad, data, err)
		}
	}
	data, err := s.ReadFile("big.txt")
	if !IsTruncated(err) || len(data) != maxReadSize {
		t.Fatalf("size cap: %d %v", len(data), err)
	}
}

func TestPromptSectionStable(t *testing.T) {
	l := newLayout(t)
	writeSkill(t, filepath.Join(l.home, ".govibe", "skills"), "zeta", skillMD("zeta", "last", "b"), nil)
	writeSkill(t, filepath.Join(l.home, ".govibe", "skills"), "alpha", skillMD("alpha", "first", "b"), nil)
	a, b := l.load(true).PromptSection(), l.load(true).PromptSection()
	if a != b {
		t.Fatal("prompt section not byte-identical across loads")
	}
	if strings.Index(a, "- alpha: first") > strings.Index(a, "- zeta: last") || strings.Contains(a, "b\n") && strings.Contains(a, "body") {
		t.Fatalf("order or content: %s", a)
	}
	if strings.Contains(a, "## 1. Proposal") {
		t.Fatal("instructions must not enter the prompt, only names and descriptions")
	}
	if Load(nil, true).PromptSection() != "" {
		t.Fatal("no skills: no section")
	}
}
