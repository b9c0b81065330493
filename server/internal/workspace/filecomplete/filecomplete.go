package filecomplete

import (
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Match is one candidate.
type Match struct {
	Root  string // the workspace root it belongs to
	Path  string // slash path relative to Root; folders end with '/'
	Score int
}

// Options bound one search.
type Options struct {
	Limit    int           // results; default 50
	Budget   time.Duration // walk time; default 80ms
	MaxFiles int           // files looked at; default 200000
}

// Complete returns the best matches of query in roots, best first, and
// whether the walk stopped early. It walks every time; Index.Complete
// keeps the listing of a tree too large to walk within the budget.
func Complete(roots []string, query string, o Options) (out []Match, partial bool) {
	o = o.withDefaults()
	q := normQuery(query)
	deadline := time.Now().Add(o.Budget)
	dirs := map[string]bool{}
	for _, root := range roots {
		ms, stopped := walkScored(root, q, o, deadline, dirs)
		out = append(out, ms...)
		if stopped {
			partial = true
			break
		}
	}
	return best(out, o.Limit), partial
}

func (o Options) withDefaults() Options {
	if o.Limit <= 0 {
		o.Limit = 50
	}
	if o.Budget <= 0 {
		o.Budget = 80 * time.Millisecond
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = 200000
	}
	return o
}

func normQuery(query string) string {
	return strings.ToLower(strings.TrimPrefix(strings.TrimSpace(query), "@"))
}

// walkScored walks root until the deadline or MaxFiles and scores every
// file and folder it meets; dirs remembers folders already scored (keyed
// by root).
func walkScored(root, q string, o Options, deadline time.Time, dirs map[string]bool) (out []Match, stopped bool) {
	var (
		mu   sync.Mutex
		seen atomic.Int64
		stop atomic.Bool
	)
	tools.WalkFiles(root, func(rel string) bool {
		n := seen.Add(1)
		if n > int64(o.MaxFiles) || (n%256 == 0 && time.Now().After(deadline)) {
			stop.Store(true)
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		out = scorePath(out, root, rel, q, dirs)
		return true
	})
	return out, stop.Load()
}

// scorePath scores a file and, once each, the folders above it (for
// @folder/).
func scorePath(out []Match, root, rel, q string, dirs map[string]bool) []Match {
	cands := []string{rel}
	for d := path.Dir(rel); d != "."; d = path.Dir(d) {
		cands = append(cands, d+"/")
	}
	for _, c := range cands {
		if strings.HasSuffix(c, "/") {
			if dirs[root+"\x00"+c] {
				break
			}
			dirs[root+"\x00"+c] = true
		}
		if s, ok := score(q, c); ok {
			out = append(out, Match{Root: root, Path: c, Score: s})
		}
	}
	return out
}

// best sorts by score, then shorter and alphabetical paths, and keeps
// limit.
func best(out []Match, limit int) []Match {
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if len(out[i].Path) != len(out[j].Path) {
			return len(out[i].Path) < len(out[j].Path)
		}
		return out[i].Path < out[j].Path
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// score is a subsequence match of q in p: consecutive characters, matches
// at word starts and in the base name score higher; shorter paths win
// ties. An empty query matches everything equally.
func score(q, p string) (int, bool) {
	return scoreLower(q, p, strings.ToLower(p))
}

// scoreLower is score with p already lower-cased (lp), for a listing
// that keeps both.
func scoreLower(q, p, lp string) (int, bool) {
	if q == "" {
		return 0, true
	}
	base := strings.LastIndex(strings.TrimSuffix(lp, "/"), "/") + 1
	s, qi, prev := 0, 0, -2
	for i := 0; i < len(lp) && qi < len(q); i++ {
		if lp[i] != q[qi] {
			continue
		}
		pts := 1
		if i == prev+1 {
			pts += 5
		}
		if i == 0 || !unicode.IsLetter(rune(lp[i-1])) && !unicode.IsDigit(rune(lp[i-1])) {
			pts += 3
		}
		if i >= base {
			pts += 2
		}
		s += pts
		prev = i
		qi++
	}
	if qi < len(q) {
		return 0, false
	}
	if strings.Contains(lp[base:], q) {
		s += 20
	}
	return s - len(p)/8, true
}
