package skipdirs

import "testing"

func TestClassification(t *testing.T) {
	cases := []struct {
		name                     string
		vcs, generated, vendored bool
	}{
		{".git", true, false, false},
		{".hg", true, false, false},
		{"node_modules", false, true, false},
		{"dist", false, true, false},
		{"__pycache__", false, true, false},
		{".venv", false, true, false},
		{"vendor", false, false, true},
		{"src", false, false, false},
		{"Node_Modules", false, false, false}, // names are case-sensitive, as on Linux
		{"", false, false, false},
	}
	for _, c := range cases {
		if IsVCS(c.name) != c.vcs || IsGenerated(c.name) != c.generated || IsVendored(c.name) != c.vendored {
			t.Errorf("%q: vcs=%v generated=%v vendored=%v, want %v %v %v", c.name,
				IsVCS(c.name), IsGenerated(c.name), IsVendored(c.name), c.vcs, c.generated, c.vendored)
		}
		if NotOwnCode(c.name) != (c.vcs || c.generated || c.vendored) {
			t.Errorf("%q: NotOwnCode disagrees with its parts", c.name)
		}
	}
}

// The lists are disjoint and free of duplicates, so no caller's reading
// depends on which list a name happens to sit in.
func TestListsDisjoint(t *testing.T) {
	seen := map[string]string{}
	for list, names := range map[string][]string{"VCS": VCS, "Generated": Generated, "Vendored": Vendored} {
		for _, n := range names {
			if prev, ok := seen[n]; ok {
				t.Errorf("%q in both %s and %s", n, prev, list)
			}
			seen[n] = list
		}
	}
}
