package subagent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadDefinitions(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	user := filepath.Join(home, ".govibe", "agents")
	proj := filepath.Join(root, ".govibe", "agents")
	write(t, user, "doc.md", "---\nname: doc\ndescription: user version\ntools: [read_file]\n---\nuser prompt\n")
	write(t, proj, "doc.md", "---\nname: doc\ndescription: project version\ntools: [read_file, grep_search]\nmodel: other\n---\r\nproject prompt\r\n")
	cases := map[string]struct {
		content, want string
		line          int
	}{
		"nofm.md":    {"just text\n", "missing YAML frontmatter", 1},
		"open.md":    {"---\nname: x\n", "never closed", 1},
		"yaml.md":    {"---\nname: x\ndescription: d\ntools: [read_file\n---\nbody\n", "invalid frontmatter: did not find expected ',' or ']'", 4},
		"field.md":   {"---\nname: x\ndescription: d\ntools: [read_file]\ncolour: red\n---\nbody\n", "invalid frontmatter: field colour not found", 5},
		"name.md":    {"---\nname: Bad Name\ndescription: d\ntools: [read_file]\n---\nbody\n", "must be lowercase", 2},
		"tool.md":    {"---\nname: t\ndescription: d\ntools: [read_file, nuke]\n---\nbody\n", `unknown tool "nuke"`, 4},
		"notools.md": {"---\nname: t2\ndescription: d\n---\nbody\n", "tools is required", 1},
		"empty.md":   {"---\nname: t3\ndescription: d\ntools: [read_file]\n---\n\n", "body", 2},
		"nodesc.md":  {"---\nname: t4\ntools: [read_file]\n---\nbody\n", "description is required", 2},
	}
	for name, c := range cases {
		write(t, proj, name, c.content)
	}
	write(t, proj, "notes.txt", "ignored")
	known := func(n string) bool { return n == "read_file" || n == "grep_search" }

	defs, problems := Load(Dirs(home, []string{root}, true), known)
	if len(defs) != 1 || defs[0].Description != "project version" || defs[0].Prompt != "project prompt" || defs[0].Model != "other" ||
		defs[0].Source != "project" || defs[0].ToolName() != "agent_doc" || strings.Join(defs[0].Tools, ",") != "read_file,grep_search" {
		t.Fatalf("defs %+v", defs)
	}
	if len(problems) != len(cases) {
		t.Fatalf("%d problems, want %d: %v", len(problems), len(cases), problems)
	}
	for _, p := range problems {
		c := cases[filepath.Base(p.Path)]
		if !strings.Contains(p.Message, c.want) || p.Line != c.line || !strings.HasPrefix(p.Error(), p.Path+":") {
			t.Errorf("%s: line %d %q, want line %d %q", p.Path, p.Line, p.Message, c.line, c.want)
		}
	}
	// Untrusted: only the user's agents.
	defs, problems = Load(Dirs(home, []string{root}, false), known)
	if len(defs) != 1 || defs[0].Source != "user" || len(problems) != 0 {
		t.Fatalf("untrusted: %+v %v", defs, problems)
	}
	// No directories at all is fine.
	if defs, problems := Load(Dirs("", []string{t.TempDir()}, true), known); len(defs) != 0 || len(problems) != 0 {
		t.Fatalf("%v %v", defs, problems)
	}
}

func TestParseReport(t *testing.T) {
	good := `{"SummaryOfFindings":"s","ExplorationTrace":["a"],"RelevantLocations":[{"FilePath":"f","Reasoning":"r","KeySymbols":["k"]}]}`
	for _, raw := range []string{good, `"` + strings.ReplaceAll(good, `"`, `\"`) + `"`, `"` + "```json\\n" + strings.ReplaceAll(good, `"`, `\"`) + "\\n```" + `"`} {
		r, err := ParseReport(json.RawMessage(raw))
		if err != nil || r.RelevantLocations[0].KeySymbols[0] != "k" {
			t.Fatalf("%s: %+v %v", raw, r, err)
		}
	}
	for raw, want := range map[string]string{
		`null`: "report is required",
		`{"SummaryOfFindings":"s","ExplorationTrace":[],"RelevantLocations":[{"FilePath":"","Reasoning":"r"}]}`: "RelevantLocations[0].FilePath must be a non-empty string; RelevantLocations[0].KeySymbols must be an array",
		`{"SummaryOfFindings":"s","ExplorationTrace":[],"RelevantLocations":[],"Extra":1}`:                      `unknown field "Extra"`,
		`{"SummaryOfFindings":" "}`:  "SummaryOfFindings must be a non-empty string; ExplorationTrace must be an array of strings; RelevantLocations must be an array",
		`"not json"`:                 "not a valid JSON object",
		`{"ExplorationTrace":"one"}`: "not a valid JSON object",
	} {
		if _, err := ParseReport(json.RawMessage(raw)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
	if _, err := ParseObjective(json.RawMessage(`{"objective":"  "}`)); err == nil {
		t.Fatal("empty objective accepted")
	}
}

// TestSubAgentsWithoutAskHuman: investigate is never offered ask_human
// (only tools that read or search: toolpolicy), so the dialog's Close note
// matters only to the agents that are (the main agent, plan agents and
// custom agents: ask_dialog_close*_test.go in test/integration).
func TestSubAgentsWithoutAskHuman(t *testing.T) {
	ts, _ := (&agentTool{investigate: true, def: Def{Name: InvestigateName}}).allowed(false)
	for _, x := range ts {
		if x.Name() == "ask_human" {
			t.Fatal("investigate is offered ask_human")
		}
	}
	ts, _ = (&agentTool{def: Def{Name: "all", AllTools: true}}).allowed(false)
	found := false
	for _, x := range ts {
		found = found || x.Name() == "ask_human"
	}
	if !found {
		t.Fatal("a custom agent with every built-in tool is not offered ask_human (the Close note tests rely on it)")
	}
}

// TestHeadlessSubAgentsLackEditorTools: with no editor attached, a
// sub-agent is not offered what only the editor answers (get_diagnostics
// always fails headless); with one, it is.
func TestHeadlessSubAgentsLackEditorTools(t *testing.T) {
	for _, a := range []*agentTool{{investigate: true, def: Def{Name: InvestigateName}}, {def: Def{Name: "all", AllTools: true}}} {
		for _, headless := range []bool{true, false} {
			ts, _ := a.allowed(headless)
			has := false
			for _, x := range ts {
				has = has || x.Traits().Has(tools.FromEditor)
			}
			if has == headless {
				t.Errorf("%s, headless %v: offered an editor-only tool: %v", a.def.Name, headless, has)
			}
		}
	}
}
