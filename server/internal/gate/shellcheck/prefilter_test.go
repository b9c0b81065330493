package shellcheck

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The prefilter is engaged for netCode: every alternative yields needles.
// If an edit to the pattern makes one underivable, the filter silently
// falls back to the slow regexp, and this says so.
func TestNetCodePrefilterIsEngaged(t *testing.T) {
	if netCode.needles == nil {
		t.Fatal("no needles derived for netCode; every check runs the full regexp")
	}
	if netCode.FindString("{print $1}") != "" || netCode.re.FindString("{print $1}") != "" {
		t.Fatal("an awk print matched")
	}
}

// The filtered FindString agrees with the plain regexp on random text made
// of the needles' pieces, case changes, separators and non-ASCII letters
// that fold to ASCII ones (ſ to s, K to k).
func TestLitFilterAgreesWithRegexp(t *testing.T) {
	exprs := []string{
		netCode.re.String(),
		`(?i)\b(nc|ncat)\s|require\(\s*['"](node:)?(net|https?)['"]\s*\)`,
		`ab+c|x(yz)?w|(?i)k`,
		`(?i)\x{212A}elvin|plain`, // a non-ASCII literal: no needle for it
		`a*|b`,                    // can match empty: no needles
	}
	pieces := []string{"socket", "SoCkEt", "ſocket", "nc ", "ncat\t", "function", "require( 'net' )", "require(\"https\")",
		"from 'node:http'", "/dev/tcp/", "http://", "HTTPS.get(", "fetch (", "listen(", "\u212Aelvin", "kelvin", "plain",
		"abbbc", "xyzw", "xw", "print", " ", "'", "\"", "(", ")", "/", ".", ":", "é", "x", "urllib", "invoke-restmethod"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, e := range exprs {
		f, re := newLitFilter(e), regexp.MustCompile(e)
		for range 3000 {
			var b strings.Builder
			for range rng.IntN(8) {
				p := pieces[rng.IntN(len(pieces))]
				if rng.IntN(4) == 0 {
					p = strings.ToUpper(p)
				}
				b.WriteString(p)
			}
			s := b.String()
			if got, want := f.FindString(s), re.FindString(s); got != want {
				t.Fatalf("%q on %q: filtered %q, regexp %q (needles %q)", e, s, got, want, f.needles)
			}
		}
	}
}

// Needles come from the whole alternation: "n" alone would let every
// awk program with a print through to the regexp.
func TestNeedlesAreSelective(t *testing.T) {
	f := newLitFilter(`(?i)\b(nc|ncat|netcat)\s|tcps(erver|ocket)`)
	want := []string{"nc", "ncat", "netcat", "tcpserver", "tcpsocket"}
	if strings.Join(f.needles, ",") != strings.Join(want, ",") {
		t.Fatalf("needles %q, want %q", f.needles, want)
	}
	if g := newLitFilter(`a*|b`); g.needles != nil {
		t.Fatalf("a pattern matching empty text got needles %q", g.needles)
	}
}
