package mentions

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
	"github.com/govibe/govibe/server/internal/workspace/web"
)

type diagHost struct{ diags []tools.Diagnostic }

func (diagHost) DirtyBuffer(context.Context, string) (string, bool, error) { return "", false, nil }
func (h diagHost) Diagnostics(context.Context, string) ([]tools.Diagnostic, error) {
	return h.diags, nil
}

// TestProblemsMention: @problems attaches the editor's diagnostics;
// headless there is no editor, and the mention says so.
func TestProblemsMention(t *testing.T) {
	root, env := workspace(t)
	env.Host = diagHost{diags: []tools.Diagnostic{{Path: filepath.Join(root, "main.go"), Line: 3, Column: 2, Severity: "error", Message: "undefined: frobnicate"}}}
	a := Expand(context.Background(), env, "fix @problems", Sources{})[0]
	if a.Kind != KindProblems || a.Error != "" || !strings.Contains(a.Content, "undefined: frobnicate") || !strings.Contains(a.Content, "main.go") {
		t.Fatalf("problems: %+v", a)
	}
	env.Host = nil
	if a := Expand(context.Background(), env, "@problems", Sources{})[0]; !strings.Contains(a.Error, "no editor is attached") {
		t.Fatalf("headless problems: %+v", a)
	}
}

// TestURLMention: @url is fetched under web_fetch's rules: an internal
// address is refused unless the policy permits it, a run without the
// fetcher says web access is off, and a permitted page arrives as text.
func TestURLMention(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><h1>Release notes</h1><p>PAGE-MARKER</p></body></html>")
	}))
	defer srv.Close()
	_, env := workspace(t)
	mention := "see @" + srv.URL + "/notes"
	if a := Expand(context.Background(), env, mention, Sources{})[0]; a.Kind != KindURL || a.Error == "" {
		t.Fatalf("fetched without a fetcher: %+v", a)
	}
	env.Web = web.NewFetcher(web.Policy{})
	if a := Expand(context.Background(), env, mention, Sources{})[0]; a.Error == "" || strings.Contains(a.Content, "PAGE-MARKER") {
		t.Fatalf("a loopback address was fetched under the default policy: %+v", a)
	}
	env.Web = web.NewFetcher(web.Policy{AllowLoopback: true})
	a := Expand(context.Background(), env, mention, Sources{})[0]
	if a.Error != "" || !strings.Contains(a.Content, "PAGE-MARKER") || strings.Contains(a.Content, "<p>") {
		t.Fatalf("permitted page: %+v", a)
	}
}

// TestMentionsPastTheCapAreReported: once the message's attachments fill
// the cap, every further mention is reported as not attached, never
// dropped.
func TestMentionsPastTheCapAreReported(t *testing.T) {
	root, env := workspace(t)
	big := strings.Repeat(strings.Repeat("y", 999)+"\n", 150)
	var text []string
	for i := 0; i < 6; i++ {
		name := fmt.Sprintf("big%d.txt", i)
		if err := os.WriteFile(filepath.Join(root, name), []byte(big), 0o644); err != nil {
			t.Fatal(err)
		}
		text = append(text, "@"+name)
	}
	text = append(text, "@main.go")
	atts := Expand(context.Background(), env, strings.Join(text, " "), Sources{})
	if len(atts) != 7 {
		t.Fatalf("%d attachments for 7 mentions: %+v", len(atts), atts)
	}
	last := atts[6]
	if last.Raw != "@main.go" || !strings.Contains(last.Error, "fill the") || last.Content != "" {
		t.Fatalf("the mention past the cap: %+v", last)
	}
	if !strings.Contains(Render(atts), `mention="@main.go" error="not attached`) {
		t.Fatalf("render omits the unattached mention:\n%s", Render(atts)[len(Render(atts))-300:])
	}
}

// TestFolderMentionNotesLargeFiles: a folder's files over the per-file
// size are listed but not attached, and the attachment says so.
func TestFolderMentionNotesLargeFiles(t *testing.T) {
	root, env := workspace(t)
	if err := os.WriteFile(filepath.Join(root, "pkg", "huge.go"), []byte(strings.Repeat("// line\n", 4000)), 0o644); err != nil {
		t.Fatal(err)
	}
	a := Expand(context.Background(), env, "@pkg/", Sources{})[0]
	if a.Error != "" || !strings.Contains(a.Content, "huge.go") || !strings.Contains(a.Content, "1 listed files are over") || strings.Contains(a.Content, `<file path="pkg/huge.go">`) {
		t.Fatalf("folder with a large file: %+v", a.Content)
	}
}

// TestSymlinkEscapeRefused: a workspace link to a file outside every
// root is refused like a path that climbs out.
func TestSymlinkEscapeRefused(t *testing.T) {
	root, env := workspace(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("TOP-SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"@link.txt", "@linkdir/", "@linkdir/secret.txt"} {
		a := Expand(context.Background(), env, m, Sources{})[0]
		if strings.Contains(a.Content, "TOP-SECRET") {
			t.Fatalf("%s attached a file outside the workspace: %+v", m, a)
		}
		if m != "@linkdir/" && a.Error == "" {
			t.Fatalf("%s: no error: %+v", m, a)
		}
	}
}
