package repocheck

import (
	"bytes"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol"
)

// mappedDocs are the documents whose paths must name real files: the map
// of the code and the front page.
var mappedDocs = []string{"docs/architecture.md", "README.md"}

// TestDocsNameExistingPaths fails when a mapped document names, in
// backticks or as a link, a file or package path that is not in the tree:
// a moved or deleted file leaves the map stale otherwise.
func TestDocsNameExistingPaths(t *testing.T) {
	root := repoRoot(t)
	tree := newTreeIndex(filesInTree(t, root))
	for _, doc := range mappedDocs {
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range docRefs(string(data)) {
			if why := tree.missing(ref); why != "" {
				t.Errorf("%s names %q: %s", doc, ref, why)
			}
		}
	}
}

// filesInTree are the tracked files and the untracked ones git does not
// ignore, so a file added but not yet staged counts as present.
func filesInTree(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v: %s", err, stderr.String())
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		// A file deleted in the work tree but not yet staged is gone.
		if f != "" {
			if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); err == nil {
				files = append(files, f)
			}
		}
	}
	return files
}

// treeIndex answers whether a path a document names exists.
type treeIndex struct {
	paths    map[string]bool // every file and every folder above one
	packages map[string]bool // the folders directly under server/internal
	// owners are what the ownership table must name: every folder directly
	// under server/internal, and every package in a group folder (agent/compact,
	// gate/osbox…) except the kits mapped as a whole and *test helpers.
	owners  map[string]bool
	methods map[string]bool // JSON-RPC method names, which look like paths
}

func newTreeIndex(files []string) *treeIndex {
	x := &treeIndex{paths: map[string]bool{}, packages: map[string]bool{}, owners: map[string]bool{}, methods: map[string]bool{}}
	for _, f := range files {
		x.paths[f] = true
		for d := path.Dir(f); d != "." && !x.paths[d]; d = path.Dir(d) {
			x.paths[d] = true
		}
		if rest, ok := strings.CutPrefix(f, "server/internal/"); ok {
			if i := strings.IndexByte(rest, '/'); i > 0 {
				x.packages[rest[:i]] = true
				x.owners[rest[:i]] = true
			}
			if parts := strings.Split(rest, "/"); len(parts) >= 3 && strings.HasSuffix(f, ".go") && !kits[parts[0]] && !strings.HasSuffix(parts[1], "test") {
				x.owners[parts[0]+"/"+parts[1]] = true
			}
		}
	}
	for _, m := range protocol.Methods {
		x.methods[m.Name] = true
	}
	return x
}

// kits are the folders under server/internal mapped as a whole: benchmarks,
// developer tools, test harnesses and small helpers.
var kits = map[string]bool{"bench": true, "devtools": true, "test": true, "util": true}

// topDirs are the repository's own top-level folders: a path starting with
// one is relative to the root.
var topDirs = []string{"server", "extension", "protocol", "e2e", "scripts", "docs", "media", "l10n", "skills"}

// sourceExts mark a bare or partial path as one of the repository's files
// (documents and data files are left out: `AGENTS.md` or `settings.json`
// usually name the user's files, not ours).
var sourceExts = map[string]bool{".go": true, ".ts": true, ".tsx": true, ".mjs": true, ".js": true, ".sh": true, ".sql": true, ".css": true}

const modulePath = "github.com/govibe/govibe/"

// notInTree lists the paths the documents may name although the tree has
// no such file, each saying where the file lives instead.
var notInTree = map[string]string{
	"calc.go": "README: the sample workspace scripts/run.sh writes for make run",
}

// missing says why ref names nothing in the tree, or "" when it does or
// when ref is not a path of this repository at all.
func (x *treeIndex) missing(ref string) string {
	p := cleanRef(ref)
	if p == "" || x.methods[p] || notInTree[p] != "" {
		return ""
	}
	p = strings.TrimPrefix(p, modulePath)
	first, _, hasSlash := strings.Cut(p, "/")
	switch {
	case isTopDir(first) && hasSlash:
		why := x.exact(p)
		if why != "" && x.packages[first] { // server/mcp.go: package server's file
			if x.exact("server/internal/"+p) == "" {
				return ""
			}
		}
		return why
	case first == "internal" && hasSlash:
		return x.exact("server/" + p)
	case sourceExts[path.Ext(p)]:
		return x.suffix(p)
	case hasSlash && x.packages[first]:
		return x.exact("server/internal/" + p)
	}
	return ""
}

// exact wants p itself, allowing a Go identifier after a package path
// (`server/internal/workspace/tools.Env`).
func (x *treeIndex) exact(p string) string {
	if x.paths[p] {
		return ""
	}
	if dir, last := path.Split(p); strings.Contains(last, ".") && !sourceExts[path.Ext(last)] {
		pkg, _, _ := strings.Cut(last, ".")
		if x.paths[dir+pkg] {
			return ""
		}
	}
	return "no such file or folder"
}

// suffix wants a file whose path ends with p at a folder boundary
// (`engine/turn.go`, `turn.go`).
func (x *treeIndex) suffix(p string) string {
	if x.paths[p] {
		return ""
	}
	for f := range x.paths {
		if strings.HasSuffix(f, "/"+p) {
			return ""
		}
	}
	return "no file in the tree ends with this path"
}

func isTopDir(s string) bool {
	for _, d := range topDirs {
		if s == d {
			return true
		}
	}
	return false
}

// cleanRef turns a code span into the path it may name, or "" when it
// is no plain path: it holds spaces, a pattern, a placeholder, a URL or
// "..", or starts at the user's home, the environment, the root or a dot
// folder (the user's files, not the repository's).
func cleanRef(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, " \t\n*?[]{}<>|$~=,\"'()@\\") || strings.Contains(s, "://") {
		return ""
	}
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "/") || strings.Contains(s, "..") {
		return ""
	}
	s = strings.TrimSuffix(s, "/")
	// A line or anchor after a file: engine/turn.go:79, README.md#headless.
	if i := strings.IndexAny(s, ":#"); i > 0 {
		s = s[:i]
	}
	if !strings.ContainsAny(s, "/.") {
		return ""
	}
	return s
}

// docRefs are a Markdown document's inline code spans and relative link
// targets, outside fenced code blocks (those hold commands and diagrams).
func docRefs(doc string) []string {
	var text strings.Builder
	fenced := false
	for _, line := range strings.SplitAfter(doc, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fenced = !fenced
			text.WriteString("\n")
			continue
		}
		if !fenced {
			text.WriteString(line)
		}
	}
	return scanSpans(text.String())
}

// scanSpans finds CommonMark code spans (a run of n backticks closed by a
// run of exactly n) and, outside them, link targets "](target)".
func scanSpans(s string) []string {
	var refs []string
	for i := 0; i < len(s); {
		switch {
		case s[i] == '`':
			n := runOf(s, i, '`')
			end := closingRun(s, i+n, n)
			if end < 0 { // an unmatched run is literal text
				i += n
				continue
			}
			refs = append(refs, strings.ReplaceAll(s[i+n:end], "\n", " "))
			i = end + n
		case strings.HasPrefix(s[i:], "]("):
			j := strings.IndexByte(s[i+2:], ')')
			if j < 0 {
				i += 2
				continue
			}
			if target := s[i+2 : i+2+j]; !strings.Contains(target, "://") && !strings.HasPrefix(target, "#") {
				refs = append(refs, target)
			}
			i += 2 + j
		default:
			i++
		}
	}
	return refs
}

func runOf(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingRun is the index of the next run of exactly n backticks from i.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return -1
		}
		m := runOf(s, i+j, '`')
		if m == n {
			return i + j
		}
		i += j + m
	}
	return -1
}

// TestArchitectureMapsEveryPackage fails when a folder directly under
// server/internal, or a package in one of its group folders, has no line in
// docs/architecture.md's ownership table (named `internal/<group>/<name>` or
// `server/internal/<group>/<name>`), so a new or renamed package cannot be
// left off the map.
func TestArchitectureMapsEveryPackage(t *testing.T) {
	root := repoRoot(t)
	tree := newTreeIndex(filesInTree(t, root))
	data, err := os.ReadFile(filepath.Join(root, "docs/architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range unmapped(tree.owners, docRefs(string(data))) {
		t.Errorf("docs/architecture.md does not map server/internal/%s: add a line for it to the ownership table", name)
	}
}

// unmapped are the packages no reference names as internal/<name> (or
// internal/<group>/<name>).
func unmapped(packages map[string]bool, refs []string) []string {
	named := map[string]bool{}
	for _, r := range refs {
		r = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(r), "server/"), "/")
		if name, ok := strings.CutPrefix(r, "internal/"); ok {
			named[name] = true
		}
	}
	var out []string
	for p := range packages {
		if !named[p] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
