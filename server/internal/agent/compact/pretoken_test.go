package compact

import (
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/dlclark/regexp2"
	"github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// cl100kPattern is cl100k_base's pre-tokenizer as tiktoken-go v0.1.8
// (encoding.go) compiles it, the reference pieceEnd must agree with.
const cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

var (
	refOnce sync.Once
	refEnc  *tiktoken.Tiktoken
	refErr  error
)

// reference is tiktoken-go's encoder: the exact counts the estimator
// gave before it was bounded.
func reference(t testing.TB) *tiktoken.Tiktoken {
	refOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
		refEnc, refErr = tiktoken.GetEncoding("cl100k_base")
	})
	if refErr != nil {
		t.Fatal(refErr)
	}
	return refEnc
}

func ourPieces(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j := pieceEnd(s, i)
		if j <= i {
			panic("pieceEnd made no progress")
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

func regexPieces(t *testing.T, re *regexp2.Regexp, s string) []string {
	var out []string
	m, err := re.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		out = append(out, m.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// trickyRunes covers every class and every edge the pattern has: the
// contraction letters in both cases (and look-alikes that lower-case to
// them or not), white space of each kind, numbers that are not digits,
// combining marks (neither letter nor number), symbols, NUL.
var trickyRunes = []rune("aZsStTrReEvVmMlLdD'’ \t\n\r\v\f\u00a0\u0085\u2028\u3000\u200b0179٣Ⅷ½.,/[]{}()_-+=\"`#!?;:中文字é\u0301\u0308😀\x00\x7fſ\u212aİ\ufffd")

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(trickyRunes[r.IntN(len(trickyRunes))])
	}
	return b.String()
}

func TestPiecesMatchTheRegex(t *testing.T) {
	re := regexp2.MustCompile(cl100kPattern, regexp2.None)
	check := func(name, s string) {
		t.Helper()
		got, want := ourPieces(s), regexPieces(t, re, s)
		if strings.Join(got, "\x00|") != strings.Join(want, "\x00|") {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("%s: piece %d is %q, the regex says %q (text %q)", name, i, got[i], want[i], s)
				}
			}
			t.Fatalf("%s: %d pieces, the regex makes %d (text %q)", name, len(got), len(want), s)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 20000; k++ {
		check("generated", randomText(r, r.IntN(24)))
	}
	for _, f := range realFiles {
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		check(f.path, string(b))
	}
	check("cjk", taoHuaYuanJi)
}

// Generated text is short enough that no piece is cut: the count must be
// tiktoken-go's exactly, invalid UTF-8 included.
func TestCountsMatchTiktokenExactly(t *testing.T) {
	enc := reference(t)
	r := rand.New(rand.NewPCG(3, 4))
	bytesOf := []byte{0xff, 0xc3, 0xe4, 0xb8, 0x80, 0xf0, 0x9f}
	for k := 0; k < 5000; k++ {
		s := randomText(r, r.IntN(40))
		if k%5 == 0 {
			// Stray and truncated UTF-8 sequences.
			b := []byte(s)
			for n := r.IntN(4); n >= 0; n-- {
				b = append(b[:0:0], b...)
				at := r.IntN(len(b) + 1)
				b = append(b[:at], append([]byte{bytesOf[r.IntN(len(bytesOf))]}, b[at:]...)...)
			}
			s = string(b)
		}
		got, _ := countText(cl100k(), s)
		if want := len(enc.EncodeOrdinary(s)); got != want {
			t.Fatalf("%q: %d tokens, tiktoken says %d", s, got, want)
		}
	}
}

// Both merge loops make tiktoken's merges: checked on pieces of every
// length around smallPiece, built from fragments BPE merges in many ways.
func TestMergeLoopsAgreeWithTiktoken(t *testing.T) {
	// Fragments of one class each, so that a text made of them is one piece.
	classes := [][]string{
		{"a", "b", "ab", "the", "ing", "ACGT", "中", "é", "x"},
		{"./", "=", "[", "{\"", "\xff", "->", "_"},
		{" ", "  ", "\t"},
	}
	r := rand.New(rand.NewPCG(5, 6))
	c := &counter{v: cl100k()}
	for k := 0; k < 3000; k++ {
		frags := classes[k%len(classes)]
		var b strings.Builder
		for n := 1 + r.IntN(3*smallPiece); b.Len() < n; {
			b.WriteString(frags[r.IntN(len(frags))])
		}
		p := validUTF8(b.String())
		if k%len(classes) == 2 {
			p += "\n" // a run of white space is one piece when it ends a line
		}
		if ps := ourPieces(p); len(ps) != 1 {
			t.Fatalf("%q is %d pieces", p, len(ps))
		}
		want := len(reference(t).EncodeOrdinary(p))
		if len(p) > 1 && c.lookup(p) < 0 {
			if got := c.scanMerge(p); got != want {
				t.Fatalf("scanMerge(%q) = %d, tiktoken %d", p, got, want)
			}
			if got := c.heapMerge(p); got != want {
				t.Fatalf("heapMerge(%q) = %d, tiktoken %d", p, got, want)
			}
		}
	}
}
