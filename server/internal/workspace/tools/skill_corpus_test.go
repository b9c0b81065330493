package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/skills"
	"github.com/govibe/govibe/server/internal/test/corpus"
)

// Real skills from anthropics/skills, in ~/.claude/skills: their whole
// descriptions reach the model (not cut at 200 bytes); load_skill says
// where the folder is, so the body's `python scripts/with_server.py
// --help` runs; read_skill_file finds REFERENCE.md as reference.md, as
// the pdf skill's body names it.
func TestRealSkills(t *testing.T) {
	home := t.TempDir()
	base := filepath.Join(home, ".claude", "skills")
	corpus.Copy(t, base, map[string]string{
		"anthropics/skills/skills/webapp-testing/SKILL.md":               "webapp-testing/SKILL.md",
		"anthropics/skills/skills/webapp-testing/scripts/with_server.py": "webapp-testing/scripts/with_server.py",
		"anthropics/skills/skills/mcp-builder/SKILL.md":                  "mcp-builder/SKILL.md",
	})
	// The pdf skill's layout (its SKILL.md says "see REFERENCE.md" while
	// the file is reference.md, anthropics/skills@4e6907a3); its text is
	// not redistributable, so the fixture is ours.
	pdf := filepath.Join(base, "pdf")
	os.MkdirAll(pdf, 0o755)
	os.WriteFile(filepath.Join(pdf, "SKILL.md"), []byte("---\nname: pdf\ndescription: Work with PDF files.\n---\nFor advanced features see REFERENCE.md.\n"), 0o644)
	os.WriteFile(filepath.Join(pdf, "reference.md"), []byte("# Advanced PDF\n"), 0o644)

	c := skills.Load(skills.Dirs(home, nil, nil), true)
	if len(c.Problems) != 0 {
		t.Fatalf("problems: %v", c.Problems)
	}
	mcp, _ := c.Get("mcp-builder")
	if len(mcp.Description) <= 200 || !strings.Contains(c.PromptSection(), mcp.Description+"\n") {
		t.Fatalf("the %d-character description was cut:\n%s", len(mcp.Description), c.PromptSection())
	}
	env := &Env{Skills: &fakeSkillHost{c: c, active: map[string]bool{}, wide: map[string]bool{}}, SessionID: "s1"}

	out := runTool(t, LoadSkill(), env, `{"name":"webapp-testing"}`).Output
	dir := filepath.Join(base, "webapp-testing")
	if !strings.Contains(out, "Skill folder: "+dir+"\n") || !strings.Contains(out, "python scripts/with_server.py --help") {
		t.Fatalf("load_skill:\n%s", out)
	}
	if _, err := exec.LookPath("python3"); err == nil {
		// What the body says to run, from the folder load_skill named.
		cmd := exec.Command("python3", "scripts/with_server.py", "--help")
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(b), "--server") {
			t.Fatalf("the skill's script did not run from its folder: %v\n%s", err, b)
		}
	}

	r := runTool(t, ReadSkillFile(), env, `{"name":"pdf","path":"REFERENCE.md"}`)
	if !r.OK || r.Output != "# Advanced PDF\n" {
		t.Fatalf("REFERENCE.md: %+v", r)
	}
	if r := runTool(t, ReadSkillFile(), env, `{"name":"pdf","path":"MISSING.md"}`); r.OK {
		t.Fatalf("a missing file was read: %+v", r)
	}
}
