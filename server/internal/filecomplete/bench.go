package filecomplete

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// GenTree writes dirs folders of files empty Go files each under root,
// twenty folders to a module: mod000/pkg000/file000.go and on. The tree
// the autocomplete is measured on (completebench) and tested on.
func GenTree(root string, dirs, files int) error {
	for d := 0; d < dirs; d++ {
		dir := filepath.Join(root, fmt.Sprintf("mod%03d", d/20), fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for f := 0; f < files; f++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%03d.go", f)), nil, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// BenchFigures are the autocomplete's figures over a GenTree tree, each
// the median of the runs.
type BenchFigures struct {
	// First is a fresh Index's first answer: the budgeted walk, scored
	// and sorted (wall time: the walk is parallel and stops at a wall
	// clock budget). FirstMatches is how many it found.
	First        time.Duration
	FirstMatches int
	// Listed is how long after that first answer the background listing
	// was complete.
	Listed time.Duration
	// Search and SearchCPU are a keystroke answered from the complete
	// listing, for the tree's last file (one goroutine: its CPU time is
	// its cost whatever else the machine runs).
	Search, SearchCPU time.Duration
	// Paths is how many files and folders the listing holds.
	Paths int
}

// Bench measures the autocomplete on root, a GenTree(root, dirs, files)
// tree, runs times; cpu is the process's CPU clock.
func Bench(root string, dirs, files, runs int, cpu func() time.Duration) (BenchFigures, error) {
	var first, listed, search, searchCPU []time.Duration
	var f BenchFigures
	last := fmt.Sprintf("pkg%03dfile%03d", dirs-1, files-1)
	want := fmt.Sprintf("mod%03d/pkg%03d/file%03d.go", (dirs-1)/20, dirs-1, files-1)
	for i := 0; i < runs; i++ {
		x := NewIndex()
		x.MaxAge = time.Hour // no refresh walk while the searches are timed
		t0 := time.Now()
		got, partial := x.Complete([]string{root}, "file042", Options{})
		first = append(first, time.Since(t0))
		f.FirstMatches = len(got)
		if len(got) == 0 {
			return f, fmt.Errorf("the first answer found nothing (partial %v)", partial)
		}
		if !partial {
			return f, fmt.Errorf("the walk of %s ended within the budget, so it has no listing to measure: generate more files", root)
		}
		l, err := x.awaitListing(root, time.Minute)
		if err != nil {
			return f, err
		}
		listed = append(listed, time.Since(t0))
		f.Paths = len(l.paths)
		for j := 0; j < 5; j++ {
			t0, c0 := time.Now(), cpu()
			got, partial := x.Complete([]string{root}, last, Options{})
			search, searchCPU = append(search, time.Since(t0)), append(searchCPU, cpu()-c0)
			if partial || len(got) == 0 || got[0].Path != want {
				return f, fmt.Errorf("from the listing, %q: %+v (partial %v), want %s first", last, got, partial, want)
			}
		}
	}
	f.First, f.Listed, f.Search, f.SearchCPU = median(first), median(listed), median(search), median(searchCPU)
	return f, nil
}

// awaitListing waits for root's background listing to be complete.
func (x *Index) awaitListing(root string, limit time.Duration) (listing, error) {
	deadline := time.Now().Add(limit)
	for {
		x.mu.Lock()
		l := x.roots[root]
		var done listing
		ok := l != nil && l.paths != nil && !l.walking
		if ok {
			done = *l
		}
		x.mu.Unlock()
		if ok {
			if !done.complete {
				return done, fmt.Errorf("the listing of %s stopped at MaxFiles", root)
			}
			return done, nil
		}
		if time.Now().After(deadline) {
			return listing{}, fmt.Errorf("no listing of %s after %v", root, limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}
