package problem

import "testing"

func TestError(t *testing.T) {
	cases := []struct {
		p    Problem
		want string
	}{
		{Problem{Path: "a/b.md", Line: 3, Message: "bad key"}, "a/b.md:3: bad key"},
		{Problem{Path: "settings: govibe.hooks", Message: "not a list"}, "settings: govibe.hooks: not a list"},
	}
	for _, c := range cases {
		if got := c.p.Error(); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.p, got, c.want)
		}
	}
}
