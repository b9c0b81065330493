package permission

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

// TestImpliedReadsMeetReadRules: a command that reads a protected file
// without naming it as an operand is judged like one that names it: a
// recursive search with no path searches the cwd, REV:path names a file,
// $PWD is the cwd, and git with no pathspec prints what it tracks.
func TestImpliedReadsMeetReadRules(t *testing.T) {
	root := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for f, c := range map[string]string{"t.txt": "x", "config/prod.txt": "KEY=1", ".env": "KEY=1", "ignored.key": "KEY=2", ".gitignore": "ignored.key\n"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(c), 0o644)
	}
	git("init", "-q")
	git("add", ".env", "t.txt", "config", ".gitignore")
	git("commit", "-qm", "init")
	w := shellcheck.Workspace{Roots: []string{root}, Home: t.TempDir()}
	pol, _, err := NewPolicy(Settings{Deny: []string{"Read(.env)", "Read(config/**)", "Read(*.key)"}}, Settings{}, w)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cmd  string
		want Verdict
	}{
		{"rg KEY", Deny},
		{"rg -g '*.txt' KEY", Deny},
		{"ag KEY", Deny},
		{"grep -r KEY", Deny},
		{"grep -rn KEY", Deny},
		{"find -name '*.txt' -exec cat {} ;", Deny},
		{"cat $PWD/.env", Deny},
		{"cat ${PWD}/config/prod.txt", Deny},
		{"git show HEAD:.env", Deny},
		{"git show HEAD:./config/prod.txt", Deny},
		{"git cat-file -p HEAD:.env", Deny},
		{"git diff", Deny},
		{"git log -p", Deny},
		{"git grep KEY", Deny},
		{"git -C . show", Deny},
		{"bash -c 'git diff HEAD~1'", Deny},
		{`python3 -c 'print(open(".env").read())'`, Deny},
		{`node -e 'require("fs").readFileSync("config/prod.txt")'`, Deny},
		{"xargs cat <<< .env", Deny},
		{"printf '%s\\n' .env | xargs cat", Deny},
		{"python3 -c 'print(1)'", None},
		{"git diff -- t.txt", None},
		{"git log --oneline", None},
		{"git status", None},
		{"rg KEY t.txt", None},
		{"grep KEY t.txt", None},
		{"git show HEAD:t.txt", None},
	} {
		an := shellcheck.Analyze(tt.cmd, w)
		d := pol.EvaluateReads(ReadPaths(tt.cmd, an, w))
		if d.Verdict == None {
			d = pol.EvaluateTracked(TrackedReads(an, w))
		}
		if d.Verdict != tt.want {
			t.Errorf("%s: verdict %s (%v), want %s", tt.cmd, d.Verdict, d.Rule, tt.want)
		}
	}

	// Only .env and config are tracked: with only the ignored file
	// protected, git's whole-repository reads stay allowed.
	ignoredOnly, _, _ := NewPolicy(Settings{Deny: []string{"Read(*.key)"}}, Settings{}, w)
	for _, cmd := range []string{"git diff", "git log -p", "git grep KEY", "git show"} {
		an := shellcheck.Analyze(cmd, w)
		if d := ignoredOnly.EvaluateTracked(TrackedReads(an, w)); d.Verdict != None {
			t.Errorf("%s: %s by %v, although git does not know ignored.key", cmd, d.Verdict, d.Rule)
		}
	}
}
