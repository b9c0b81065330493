package filecomplete

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/test/gentree"
)

func tree(t *testing.T, root string, dirs, files int) {
	t.Helper()
	if err := gentree.Empty(root, dirs, files); err != nil {
		t.Fatal(err)
	}
}

// awaitFound asks x until query's best match is want with a complete
// answer (the background listing is in), 30 s at most.
func awaitFound(t *testing.T, x *Index, root, query, want string, o Options) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, partial := x.Complete([]string{root}, query, o)
		if !partial && len(got) > 0 && got[0].Path == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q: %+v (partial %v), want %s first", query, got, partial, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestLargeRootIsListedInTheBackground: a root the budget cannot walk
// answers partially at once, then from its full listing (every file
// findable, the answer complete), and a file created later is found once
// the listing is older than MaxAge; a small root never needs a listing.
func TestLargeRootIsListedInTheBackground(t *testing.T) {
	root := t.TempDir()
	tree(t, root, 40, 100)
	o := Options{Budget: time.Nanosecond} // the walk stops at its first deadline check
	x := NewIndex()
	x.MaxAge = 20 * time.Millisecond
	if _, partial := x.Complete([]string{root}, "pkg001file042", o); !partial {
		t.Fatal("a walk cut by the budget was not partial")
	}
	awaitFound(t, x, root, "pkg001file042", "mod000/pkg001/file042.go", o)
	// Any file, the last one walked included (the 100,000-file figures are
	// completebench's, in make bench).
	if got, partial := x.Complete([]string{root}, "pkg039file099", o); partial || len(got) == 0 || got[0].Path != "mod001/pkg039/file099.go" {
		t.Fatalf("the last file from the listing: %+v (partial %v)", got, partial)
	}
	if err := os.WriteFile(filepath.Join(root, "mod000", "pkg001", "fresh.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	awaitFound(t, x, root, "pkg001fresh", "mod000/pkg001/fresh.go", o)

	small := t.TempDir()
	tree(t, small, 1, 10)
	if got, partial := x.Complete([]string{small}, "file007", Options{}); partial || len(got) == 0 || got[0].Path != "mod000/pkg000/file007.go" {
		t.Fatalf("small root: %+v (partial %v)", got, partial)
	}
	x.mu.Lock()
	_, listed := x.roots[small]
	x.mu.Unlock()
	if listed {
		t.Fatal("a root walked within the budget got a listing")
	}
}

// Listing reports nothing for a root it was never asked about, a walk
// in progress once the budget cut the first answer short, then the
// listing's size: every file plus each folder once.
func TestListingReportsTheBackgroundListing(t *testing.T) {
	root := t.TempDir()
	tree(t, root, 40, 100) // 4,000 files in 40 package folders under 2 modules: past the budget
	x := NewIndex()
	x.MaxAge = time.Hour
	if st := x.Listing(root); st != (ListingStatus{}) {
		t.Fatalf("before any walk: %+v", st)
	}
	o := Options{Budget: time.Nanosecond}
	if _, partial := x.Complete([]string{root}, "file001", o); !partial {
		t.Fatal("a walk cut by the budget was not partial")
	}
	if st := x.Listing(root); !st.Ready && !st.Walking {
		t.Fatalf("after a cut walk: %+v, want a listing walk running or done", st)
	}
	awaitFound(t, x, root, "pkg039file099", "mod001/pkg039/file099.go", o)
	// A refresh may be walking by now; the listing it replaces stays.
	st := x.Listing(root)
	st.Walking = false
	if want := (ListingStatus{Ready: true, Complete: true, Paths: 4000 + 40 + 2}); st != want {
		t.Fatalf("listed: %+v, want %+v", st, want)
	}
}
