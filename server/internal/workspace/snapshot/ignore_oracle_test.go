package snapshot

import (
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// The real git CLI is the oracle for which files ignore rules exclude.
func TestIgnoreRulesAgreeWithGit(t *testing.T) {
	isolateGitEnv(t)
	root := t.TempDir()
	runGit(t, root, "init", "-q")
	writeFile(t, root, ".gitignore", strings.Join([]string{
		"*.log", "!keep.log", "/rooted.txt", "docs/*.md", "**/gen/", "tmp/", "a?c.txt",
		"[bc]at.txt", "sub/**/deep.txt", "trailing.txt   ", "\\#hash.txt", "name-dir/", "*.o",
	}, "\n")+"\n", 0o644)
	writeFile(t, root, "sub/.gitignore", "*.out\n!important.out\n/anchored.md\n", 0o644)
	writeFile(t, root, ".git/info/exclude", "info-excluded\n", 0o644)
	for _, p := range []string{
		"a.log", "keep.log", "x/keep.log", "x/b.log", "rooted.txt", "x/rooted.txt",
		"docs/a.md", "docs/deeper/b.md", "readme.md", "x/gen/g.go", "gen/g.go", "gen.go",
		"tmp/t.txt", "x/tmp/t.txt", "tmp.txt", "abc.txt", "abbc.txt", "bat.txt", "cat.txt", "dat.txt",
		"sub/a/b/deep.txt", "sub/deep.txt", "deep.txt", "trailing.txt", "#hash.txt",
		"name-dir/f.txt", "x/name-dir", "lib.o", "sub/r.out", "sub/important.out", "sub/x/y.out",
		"sub/anchored.md", "sub/z/anchored.md", "info-excluded", "x/info-excluded/f.txt", "plain/ok.go",
	} {
		writeFile(t, root, p, "content "+p, 0o644)
	}
	want := strings.Fields(runGit(t, root, "ls-files", "--others", "--exclude-standard"))
	sort.Strings(want)

	s := openTestStore(t, root, Options{SkipDirs: []string{}})
	info, _ := snap(t, s, "one")
	diffs, err := s.diffTrees(plumbing.ZeroHash, plumbing.NewHash(info.tree))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diffs {
		got = append(got, d.path)
	}
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("snapshot files differ from git's view:\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
