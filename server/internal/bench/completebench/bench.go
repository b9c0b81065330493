package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/filecomplete"
)

// BenchFigures are the autocomplete's figures over a gentree.Empty tree, each
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

// Bench measures the autocomplete on root, a gentree.Empty(root, dirs, files)
// tree, runs times; cpu is the process's CPU clock.
func Bench(root string, dirs, files, runs int, cpu func() time.Duration) (BenchFigures, error) {
	var first, listed, search, searchCPU []time.Duration
	var f BenchFigures
	last := fmt.Sprintf("pkg%03dfile%03d", dirs-1, files-1)
	want := fmt.Sprintf("mod%03d/pkg%03d/file%03d.go", (dirs-1)/20, dirs-1, files-1)
	for i := 0; i < runs; i++ {
		x := filecomplete.NewIndex()
		x.MaxAge = time.Hour // no refresh walk while the searches are timed
		t0 := time.Now()
		got, partial := x.Complete([]string{root}, "file042", filecomplete.Options{})
		first = append(first, time.Since(t0))
		f.FirstMatches = len(got)
		if len(got) == 0 {
			return f, fmt.Errorf("the first answer found nothing (partial %v)", partial)
		}
		if !partial {
			return f, fmt.Errorf("the walk of %s ended within the budget, so it has no listing to measure: generate more files", root)
		}
		paths, err := awaitListing(x, root, time.Minute)
		if err != nil {
			return f, err
		}
		listed = append(listed, time.Since(t0))
		f.Paths = paths
		for j := 0; j < 5; j++ {
			t0, c0 := time.Now(), cpu()
			got, partial := x.Complete([]string{root}, last, filecomplete.Options{})
			search, searchCPU = append(search, time.Since(t0)), append(searchCPU, cpu()-c0)
			if partial || len(got) == 0 || got[0].Path != want {
				return f, fmt.Errorf("from the listing, %q: %+v (partial %v), want %s first", last, got, partial, want)
			}
		}
	}
	f.First, f.Listed, f.Search, f.SearchCPU = median(first), median(listed), median(search), median(searchCPU)
	return f, nil
}

// awaitListing waits for root's background listing to be complete and
// returns how many paths it holds. It polls: the index has no event to
// wait on, and 10 ms is well under the listing's seconds.
func awaitListing(x *filecomplete.Index, root string, limit time.Duration) (int, error) {
	deadline := time.Now().Add(limit)
	for {
		if st := x.Listing(root); st.Ready && !st.Walking {
			if !st.Complete {
				return st.Paths, fmt.Errorf("the listing of %s stopped at MaxFiles", root)
			}
			return st.Paths, nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("no listing of %s after %v", root, limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}
