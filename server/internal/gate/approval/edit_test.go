package approval

import (
	"strings"
	"testing"
)

// What the model is told about an accepted edit follows what was written,
// whatever the answer claimed.
func TestWrittenNote(t *testing.T) {
	proposed := "// Add adds a and b.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	partial := "func Add(a, b int) int {\n\treturn a + b\n}\n"
	for _, tc := range []struct {
		name     string
		written  string
		rejected []int
		want     []string
		not      []string
	}{
		{"as proposed", proposed, nil, nil, []string{"rejected", "modified"}},
		{"hunk rejected and left out", partial, []int{1}, []string{"rejected hunk(s) 1", "-// Add adds a and b."}, []string{"modified"}},
		// The answer named a rejected hunk, but the file holds the whole
		// proposal: the model must not be told a hunk was left out.
		{"hunk rejected but written anyway", proposed, []int{1}, []string{"written in full"}, []string{"rejected", "only the other"}},
		{"user's own version", partial + "// by hand\n", nil, []string{"the user modified your edit:", "+// by hand"}, []string{"rejected"}},
		{"hunks sorted", partial, []int{3, 1}, []string{"rejected hunk(s) 1, 3"}, nil},
	} {
		got := writtenNote(proposed, tc.written, tc.rejected, false)
		if len(tc.want) == 0 && got != "" {
			t.Errorf("%s: want no note, got %q", tc.name, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: note %q lacks %q", tc.name, got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: note %q must not say %q", tc.name, got, n)
			}
		}
	}
	if got := writtenNote(proposed, "", []int{1}, true); got != "" {
		t.Errorf("a deletion has no content note: %q", got)
	}
}
