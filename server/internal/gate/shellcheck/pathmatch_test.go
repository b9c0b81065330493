package shellcheck

import (
	"strings"
	"testing"
)

// under, atOrBelow and hasSegments avoid building dir+"/" and the like;
// they agree with the concatenating forms they replaced on every pair of
// a set of awkward paths (trailing slashes, "/", prefixes that are not
// whole components, repeated names).
func TestPathHelpersAgreeWithConcatenatingForms(t *testing.T) {
	paths := []string{"", "/", "~", "~/", "/a", "/a/", "/ab", "/a/b", "/a/b/", "/a//b", "a", "a/b", "ab/c",
		"/home/u/.ssh", "/home/u/.sshx", "/home/u/.ssh/id", "/x/.config/gh/hosts", "/x/.config/ghx", ".ssh", ".ssh/k",
		"/proc", "/proc/1/environ", "/.ssh", "/a/.ssh/.ssh", "/a/x.ssh/b", "/etc/ssh", "/etc/sshd"}
	segs := []string{".ssh", ".config/gh", "a", "b", "ssh", "a/b", "/"}
	for _, p := range paths {
		for _, d := range append(paths, segs...) {
			// under, as it was.
			wantRel, wantOK := "", false
			if d != "" {
				if p == d {
					wantRel, wantOK = ".", true
				} else {
					prefix := d
					if !strings.HasSuffix(prefix, "/") {
						prefix += "/"
					}
					if strings.HasPrefix(p, prefix) {
						wantRel, wantOK = p[len(prefix):], true
					}
				}
			}
			if rel, ok := under(p, d); rel != wantRel || ok != wantOK {
				t.Errorf("under(%q, %q) = %q %v, want %q %v", p, d, rel, ok, wantRel, wantOK)
			}
			if got, want := atOrBelow(p, d), p == d || strings.HasPrefix(p, d+"/"); got != want {
				t.Errorf("atOrBelow(%q, %q) = %v, want %v", p, d, got, want)
			}
			if d == "" {
				continue
			}
			if got, want := hasSegments(p, d), strings.Contains(p+"/", "/"+d+"/"); got != want {
				t.Errorf("hasSegments(%q, %q) = %v, want %v", p, d, got, want)
			}
		}
	}
}
