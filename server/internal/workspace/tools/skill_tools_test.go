package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/skills"
	builtin "github.com/govibe/govibe/skills"
)

type fakeSkillHost struct {
	c      *skills.Catalog
	mu     sync.Mutex
	active map[string]bool
	wide   map[string]bool
}

func (h *fakeSkillHost) Catalog() *skills.Catalog { return h.c }
func (h *fakeSkillHost) Active(_ context.Context, _ string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for n := range h.active {
		out = append(out, n)
	}
	return out
}
func (h *fakeSkillHost) Activate(_ context.Context, _ string, name string, workspace bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.active[name] = true
	if workspace {
		h.wide[name] = true
	}
	return nil
}

func runTool(t *testing.T, tl Tool, env *Env, args string) Result {
	t.Helper()
	r, err := tl.Run(context.Background(), env, json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSkillTools(t *testing.T) {
	home := t.TempDir()
	d := filepath.Join(home, ".govibe", "skills", "release")
	os.MkdirAll(filepath.Join(d, "docs"), 0o755)
	os.WriteFile(filepath.Join(d, "SKILL.md"), []byte("---\nname: release\ndescription: Cut a release\nsubSkills: [code-reviewer]\n---\nTag it. See docs/steps.md.\n"), 0o644)
	os.WriteFile(filepath.Join(d, "docs", "steps.md"), []byte("1. tag\n"), 0o644)
	os.WriteFile(filepath.Join(home, "outside.txt"), []byte("secret"), 0o644)
	h := &fakeSkillHost{c: skills.Load(skills.Dirs(home, nil, builtin.FS), true), active: map[string]bool{}, wide: map[string]bool{}}
	env := &Env{Skills: h, SessionID: "s1"}

	r := runTool(t, ListSkills(), env, `{}`)
	if !r.OK || !strings.Contains(r.Output, "- release (user): Cut a release") || !strings.Contains(r.Output, "spec-driven (builtin)") {
		t.Fatalf("list: %+v", r)
	}
	r = runTool(t, LoadSkill(), env, `{"name":"release"}`)
	if !r.OK || !strings.Contains(r.Output, "Tag it.") || !strings.Contains(r.Output, "docs/steps.md") || !strings.Contains(r.Output, "code-reviewer") {
		t.Fatalf("load: %+v", r)
	}
	if r = runTool(t, ReadSkillFile(), env, `{"name":"release","path":"docs/steps.md"}`); !r.OK || r.Output != "1. tag\n" {
		t.Fatalf("read: %+v", r)
	}
	for _, bad := range []string{`{"name":"release","path":"../../outside.txt"}`, `{"name":"release","path":"/etc/passwd"}`, `{"name":"nope","path":"x"}`} {
		if r = runTool(t, ReadSkillFile(), env, bad); r.OK || strings.Contains(r.Output, "secret") {
			t.Errorf("%s: %+v", bad, r)
		}
	}
	if r = runTool(t, LoadSkill(), env, `{"name":"missing"}`); r.OK || !strings.Contains(r.Output, "Available: code-reviewer") {
		t.Fatalf("unknown skill names the available ones: %+v", r)
	}
	if r = runTool(t, ActivateSkill(), env, `{"name":"release","scope":"workspace"}`); !r.OK || !h.wide["release"] {
		t.Fatalf("activate: %+v", r)
	}
	if r = runTool(t, ActivateSkill(), env, `{"name":"release","scope":"galaxy"}`); r.OK {
		t.Fatalf("bad scope accepted")
	}
	if r = runTool(t, ListSkills(), env, `{}`); !strings.Contains(r.Output, "release (user) [active]") {
		t.Fatalf("active not shown: %s", r.Output)
	}
	if r = runTool(t, ListSkills(), &Env{}, `{}`); r.OK {
		t.Fatalf("no host: want a failure")
	}
}
