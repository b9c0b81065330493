package tools

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/sandbox"
)

// notFound builds the model-visible "does not exist" message with up to
// three similar existing names from the workspace.
func notFound(env *Env, sb *sandbox.Sandbox, what, path, abs string) Result {
	msg := fmt.Sprintf("%s not found: %s", what, path)
	if s := suggest(sb, abs); len(s) > 0 {
		msg += "\nDid you mean: " + strings.Join(s, ", ") + "?"
	}
	shown := env.Tr("Path not found: %s", path)
	switch what {
	case "file":
		shown = env.Tr("File not found: %s", path)
	case "folder":
		shown = env.Tr("Folder not found: %s", path)
	}
	return FailShown(msg, shown)
}

// suggest ranks existing paths whose base name is close to abs's base name:
// first in the nearest existing ancestor directory, then across the
// workspace (bounded walk honouring .gitignore).
func suggest(sb *sandbox.Sandbox, abs string) []string {
	want := strings.ToLower(filepath.Base(abs))
	type cand struct {
		path  string
		score int
	}
	var cands []cand
	seen := map[string]bool{}
	add := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		name := strings.ToLower(filepath.Base(p))
		d := levenshtein(want, name)
		limit := max(2, len(want)/3)
		if strings.Contains(name, want) || strings.Contains(want, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		if d <= limit {
			cands = append(cands, cand{p, d})
		}
	}
	dir := filepath.Dir(abs)
	for dir != filepath.Dir(dir) {
		if entries, err := os.ReadDir(dir); err == nil {
			for _, e := range entries {
				add(filepath.Join(dir, e.Name()))
			}
			break
		}
		dir = filepath.Dir(dir)
	}
	budget := 20000
	for _, root := range sb.Roots() {
		walkTree(root, walkOptions{hidden: false}, func(p, _ string, d fs.DirEntry) bool {
			budget--
			add(p)
			return budget > 0
		})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score < cands[j].score
		}
		return cands[i].path < cands[j].path
	})
	var out []string
	for _, c := range cands {
		out = append(out, sb.Display(c.path))
		if len(out) == 3 {
			break
		}
	}
	return out
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
