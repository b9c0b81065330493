package compact

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/bench/cputime"
)

// worstCaseBytes and worstCaseBudget: every generated worst case of this
// size is counted within the budget of CPU time. Before the estimator was
// bounded, 256 KB of "./" took minutes; now it takes milliseconds, so the
// budget is generous enough never to flake on a loaded machine.
const (
	worstCaseBytes  = 256 << 10
	worstCaseBudget = time.Second
	// worstCaseWall fails the test rather than let it hang on a
	// regression.
	worstCaseWall = 60 * time.Second
)

// worstCases are texts built to be hard for a pre-tokenizer and BPE:
// long runs of one character class, deep nesting, huge numbers, NUL
// bytes, invalid UTF-8, and random mixtures of the characters the piece
// rules treat specially.
func worstCases() map[string]string {
	rep := func(unit string) string { return strings.Repeat(unit, worstCaseBytes/len(unit)) }
	r := rand.New(rand.NewPCG(9, 9))
	random := func(alphabet []byte) string {
		b := make([]byte, worstCaseBytes)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	var nested strings.Builder
	for nested.Len() < worstCaseBytes/2 {
		nested.WriteString(`{"a":[`)
	}
	depth := nested.Len() / 6
	for i := 0; i < depth; i++ {
		nested.WriteString(`]}`)
	}
	allBytes := make([]byte, 256)
	for i := range allBytes {
		allBytes[i] = byte(i)
	}
	cases := map[string]string{
		"letters":                                rep("a"),
		"upper and lower letters":                random([]byte("aAbBzZ")),
		"CJK":                                    rep("中"),
		"digits (a huge number)":                 rep("7"),
		"number with separators":                 rep("1,000."),
		"symbols":                                rep("./"),
		"brackets":                               rep("["),
		"nested JSON":                            nested.String(),
		"spaces":                                 rep(" "),
		"tabs and spaces":                        rep("\t "),
		"newlines":                               rep("\n"),
		"CRLF":                                   rep("\r\n"),
		"space newline":                          rep(" \n"),
		"no-break spaces":                        rep("\u00a0"),
		"NUL bytes":                              rep("\x00"),
		"invalid UTF-8":                          rep("\xff"),
		"truncated UTF-8":                        rep("\xe4\xb8"),
		"combining marks":                        "e" + rep("\u0301"),
		"emoji":                                  rep("😀"),
		"contractions":                           rep("'s"),
		"apostrophes and letters":                rep("a'"),
		"space before each letter":               rep(" a"),
		"letter digit":                           rep("a1"),
		"random bytes":                           random(allBytes),
		"random ASCII symbols":                   random([]byte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")),
		"random letters, digits and white space": random([]byte("ab12 \t\n\r")),
	}
	var tricky strings.Builder
	for tricky.Len() < worstCaseBytes {
		tricky.WriteRune(trickyRunes[r.IntN(len(trickyRunes))])
	}
	cases["random tricky characters"] = tricky.String()
	return cases
}

func TestWorstCasesFinishWithinBudget(t *testing.T) {
	Default().Text("warm-up") // loads the vocabulary outside the budget
	for name, s := range worstCases() {
		took, err := cpuTimeOf(func() { NewEstimator().Text(s) })
		if err != nil {
			t.Fatalf("%s (%d bytes): %v", name, len(s), err)
		}
		if took > worstCaseBudget {
			t.Errorf("%s (%d bytes): %v of CPU, budget %v", name, len(s), took, worstCaseBudget)
		}
	}
}

// cpuTimeOf runs f and reports the process CPU time it took (its wall
// time where CPU time is unknown), or an error once it has run for
// worstCaseWall without finishing.
func cpuTimeOf(f func()) (time.Duration, error) {
	done := make(chan struct{})
	c0, w0 := cputime.Self(), time.Now()
	go func() {
		f()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(worstCaseWall):
		return 0, fmt.Errorf("still counting after %v", worstCaseWall)
	}
	if c := cputime.Self() - c0; c > 0 {
		return c, nil
	}
	return time.Since(w0), nil
}
