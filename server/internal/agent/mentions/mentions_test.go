package mentions

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

func kinds(ms []Mention) string {
	var out []string
	for _, m := range ms {
		out = append(out, string(m.Kind)+"="+m.Target)
	}
	return strings.Join(out, " ")
}

func TestParse(t *testing.T) {
	cases := map[string]string{
		"fix @src/main.go please":                  "file=src/main.go",
		"look at @docs/ and @problems.":            "folder=docs/ problems=",
		"mail me at bob@example.com":               "",
		"ping @alice about it":                     "",
		`escaped \@src/a.go`:                       "",
		"see `@src/a.go` in code":                  "",
		"```\n@src/a.go\n```":                      "",
		"(@README.md) and @git-changes, @terminal": "file=README.md git-changes= terminal=",
		"read @https://go.dev/doc/ now":            "url=https://go.dev/doc/",
		"use @mcp:github:repo://x/y":               "mcp=github:repo://x/y",
		"explain @#Engine.Send, and @#parse":       "symbol=Engine.Send symbol=parse",
		"a lone @# sign":                           "",
	}
	for in, want := range cases {
		if got := kinds(Parse(in)); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
	many := strings.Repeat("@a.go ", 50)
	if n := len(Parse(many)); n != maxMentions {
		t.Errorf("capped at %d, got %d", maxMentions, n)
	}
}

func workspace(t *testing.T) (string, *tools.Env) {
	root := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "pkg", "sub"), 0o755))
	must(os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "pkg", "a.go"), []byte("package pkg\n// A\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "pkg", "sub", "b.go"), []byte("package sub\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "pkg", "gen.bin"), []byte{0, 1, 2, 3}, 0o644))
	must(os.WriteFile(filepath.Join(root, ".gitignore"), []byte("ignored/\n"), 0o644))
	must(os.MkdirAll(filepath.Join(root, "ignored"), 0o755))
	must(os.WriteFile(filepath.Join(root, "ignored", "x.go"), []byte("secret\n"), 0o644))
	return root, &tools.Env{Roots: []string{root}, Files: tools.NewFileTracker()}
}

func TestExpandFilesFoldersAndEscapes(t *testing.T) {
	root, env := workspace(t)
	atts := Expand(context.Background(), env, "check @main.go and @pkg/ but not @../../etc/passwd or @/etc/hostname", Sources{})
	if len(atts) != 4 {
		t.Fatalf("attachments: %+v", atts)
	}
	if atts[0].Error != "" || !strings.Contains(atts[0].Content, "package main") {
		t.Fatalf("file: %+v", atts[0])
	}
	if atts[1].Error != "" || !strings.Contains(atts[1].Content, "pkg/sub/b.go") || !strings.Contains(atts[1].Content, "// A") {
		t.Fatalf("folder: %+v", atts[1])
	}
	for _, a := range atts[2:] {
		if a.Error == "" || strings.Contains(a.Content, "root:") {
			t.Fatalf("escape not refused: %+v", a)
		}
	}
	if a := Expand(context.Background(), env, "@ignored/", Sources{})[0]; strings.Contains(a.Content, "secret") {
		t.Fatalf("gitignored content attached: %+v", a)
	}
	out := Render(atts)
	if !strings.Contains(out, `<attachment mention="@main.go" kind="file">`) || !strings.Contains(out, `mention="@../../etc/passwd" error=`) {
		t.Fatalf("render: %s", out)
	}
	_ = root
}

func TestExpandGitChangesAndSources(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root, env := workspace(t)
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	run("init", "-q")
	run("add", ".")
	run("commit", "-qm", "init")
	os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	os.WriteFile(filepath.Join(root, "new.txt"), []byte("n\n"), 0o644)
	a := Expand(context.Background(), env, "@git-changes", Sources{})[0]
	if a.Error != "" || !strings.Contains(a.Content, "+func main() {}") || !strings.Contains(a.Content, "new.txt") {
		t.Fatalf("git changes: %+v", a)
	}
	atts := Expand(context.Background(), env, "@terminal @mcp:gh:issue://1 @mcp:bad", Sources{
		Terminal: func(context.Context) (string, error) { return "$ make\nok", nil },
		MCPResource: func(_ context.Context, s, u string) (string, error) {
			return "", errors.New("no MCP server named " + s)
		},
	})
	if atts[0].Content != "$ make\nok" || !strings.Contains(atts[1].Error, "no MCP server named gh") || !strings.Contains(atts[2].Error, "@mcp:<server>") {
		t.Fatalf("sources: %+v", atts)
	}
	if a := Expand(context.Background(), env, "@terminal", Sources{})[0]; !strings.Contains(a.Error, "not available") {
		t.Fatalf("no terminal: %+v", a)
	}
}

func TestTotalCap(t *testing.T) {
	root, env := workspace(t)
	big := strings.Repeat(strings.Repeat("x", 999)+"\n", 150)
	for i := 0; i < 5; i++ {
		os.WriteFile(filepath.Join(root, "big"+string(rune('a'+i))+".txt"), []byte(big), 0o644)
	}
	atts := Expand(context.Background(), env, "@biga.txt @bigb.txt @bigc.txt @bigd.txt @bige.txt", Sources{})
	total := 0
	for _, a := range atts {
		total += a.Chars
		if a.Error == "" && !a.Truncated {
			t.Errorf("%s not marked truncated", a.Raw)
		}
	}
	if total > MaxTotal+5*200 {
		t.Fatalf("total %d over the cap", total)
	}
}
