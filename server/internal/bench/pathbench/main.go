// Command pathbench measures the path sandbox on the longest path it
// accepts, as ratios against references measured in the same run: a short
// path, filepath.Clean of the same long path, and the former walk-back
// resolution that was quadratic in the number of components.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/gate/sandbox"
)

func main() {
	reps := flag.Int("reps", 200, "repetitions per figure (the median is reported)")
	budget := flag.Float64("budget", 200, "fail when the longest path costs more than this many short ones")
	flag.Parse()
	root, err := os.MkdirTemp("", "pathbench")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(root)
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "src", "main.go"), []byte("package main\n"), 0o644)
	s := sandbox.New([]string{root})

	long := longestPath()
	short := time.Duration(median(*reps, func() { must(s.Resolve("src/main.go")) }))
	longest := time.Duration(median(*reps, func() { must(s.Resolve(long)) }))
	clean := time.Duration(median(*reps, func() { filepath.Clean(filepath.Join(root, long)) }))
	walkBack := time.Duration(median(max(1, *reps/10), func() { walkBackReal(filepath.Join(root, long)) }))
	attack := strings.Repeat("a/", 60000)
	refuse := time.Duration(median(*reps, func() {
		if _, err := s.Resolve(attack); err == nil {
			panic("the 120 KB path was accepted")
		}
	}))

	fmt.Printf("longest accepted path: %d bytes, %d components\n", len(long), strings.Count(long, "/")+1)
	fmt.Printf("resolve short path:              %10v\n", short)
	fmt.Printf("resolve longest path:            %10v  %6.1fx a short path\n", longest, ratio(longest, short))
	fmt.Printf("filepath.Clean of longest path:  %10v  resolve is %.1fx Clean\n", clean, ratio(longest, clean))
	fmt.Printf("former walk-back on it:          %10v  %6.1fx the new resolve\n", walkBack, ratio(walkBack, longest))
	fmt.Printf(`refuse "a/" x 60,000 (120 KB):   %10v  %6.1fx a short path`+"\n", refuse, ratio(refuse, short))
	if r := ratio(longest, short); r > *budget {
		fmt.Printf("FAIL: the longest path costs %.0fx a short one (budget %.0fx)\n", r, *budget)
		os.Exit(1)
	}
}

// longestPath builds a path of exactly MaxPathBytes in MaxPathComponents
// components, none of which exists.
func longestPath() string {
	n := sandbox.MaxPathComponents
	seg := (sandbox.MaxPathBytes - (n - 1)) / n
	parts := make([]string, n)
	for i := range parts {
		parts[i] = strings.Repeat("d", seg)
	}
	p := strings.Join(parts, "/")
	return p + strings.Repeat("f", sandbox.MaxPathBytes-len(p))
}

// walkBackReal is the former resolution: EvalSymlinks on the full path,
// then on every shorter prefix until one resolves.
func walkBackReal(p string) string {
	cur := p
	var tail []string
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			for i := len(tail) - 1; i >= 0; i-- {
				r = filepath.Join(r, tail[i])
			}
			return r
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		tail = append(tail, filepath.Base(cur))
		cur = parent
	}
}

func median(reps int, f func()) int64 {
	d := make([]int64, reps)
	for i := range d {
		start := time.Now()
		f()
		d[i] = int64(time.Since(start))
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[reps/2]
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(max(b, 1)) }

func must(_ string, err error) {
	if err != nil {
		panic(err)
	}
}
