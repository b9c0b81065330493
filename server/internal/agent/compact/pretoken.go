package compact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The cl100k_base encoding first splits text into pieces with this
// pattern, then runs BPE on each piece:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// tiktoken-go runs it with a backtracking regex engine, which costs about
// three quarters of its time on ordinary text. pieceEnd is the same
// pattern written out as a scanner: one pass, no allocation, and the same
// pieces (pretoken_test.go checks it against the regex on generated and
// real text). Classes follow the regex engine's: \p{L} is unicode.IsLetter,
// \p{N} unicode.IsNumber, \s unicode.IsSpace.

// class is what the pattern distinguishes about a character.
type class uint8

const (
	other   class = iota // neither letter, number nor white space
	letter               // \p{L}
	number               // \p{N}
	space                // \s other than \r and \n
	newline              // \r or \n
)

var asciiClass = func() (t [utf8.RuneSelf]class) {
	for r := range t {
		t[r] = classOfSlow(rune(r))
	}
	return t
}()

func classOfSlow(r rune) class {
	switch {
	case r == '\r' || r == '\n':
		return newline
	case unicode.IsLetter(r):
		return letter
	case unicode.IsNumber(r):
		return number
	case unicode.IsSpace(r):
		return space
	}
	return other
}

// at decodes the character at byte i of s (valid UTF-8) and its class.
func at(s string, i int) (class, rune, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return asciiClass[b], rune(b), 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return classOfSlow(r), r, n
}

// classAt is the class at byte i, or a sentinel past the end.
func classAt(s string, i int) (class, int) {
	if i >= len(s) {
		return 255, 0
	}
	c, _, n := at(s, i)
	return c, n
}

// runOf is the end of the run of class c (or, with c2, either class)
// starting at byte i.
func runOf(s string, i int, c, c2 class) int {
	for i < len(s) {
		k, n := classAt(s, i)
		if k != c && k != c2 {
			break
		}
		i += n
	}
	return i
}

// contractions are the alternatives of (?i:'s|'t|'re|'ve|'m|'ll|'d), in
// the pattern's order.
var contractions = [...]string{"s", "t", "re", "ve", "m", "ll", "d"}

// contraction is the end of a contraction whose apostrophe ends at i, or 0.
// The regex engine compares unicode.ToLower of each character.
func contraction(s string, i int) int {
	for _, want := range contractions {
		j, ok := i, true
		for _, w := range want {
			if j >= len(s) {
				ok = false
				break
			}
			_, r, n := at(s, j)
			if unicode.ToLower(r) != w {
				ok = false
				break
			}
			j += n
		}
		if ok {
			return j
		}
	}
	return 0
}

// pieceEnd is where the piece starting at byte i of s ends: the first
// alternative of the pattern that matches at i, as the regex engine
// chooses it. s must be valid UTF-8 and i < len(s).
func pieceEnd(s string, i int) int {
	c, r, n := at(s, i)
	// (?i:'s|'t|'re|'ve|'m|'ll|'d)
	if r == '\'' {
		if e := contraction(s, i+n); e > 0 {
			return e
		}
	}
	// [^\r\n\p{L}\p{N}]?\p{L}+
	switch c {
	case letter:
		return runOf(s, i+n, letter, letter)
	case other, space:
		if c2, n2 := classAt(s, i+n); c2 == letter {
			return runOf(s, i+n+n2, letter, letter)
		}
	}
	// \p{N}{1,3}
	if c == number {
		j := i + n
		for k := 0; k < 2; k++ {
			c2, n2 := classAt(s, j)
			if c2 != number {
				break
			}
			j += n2
		}
		return j
	}
	//  ?[^\s\p{L}\p{N}]+[\r\n]*
	start := -1
	if c == other {
		start = i
	} else if r == ' ' {
		if c2, _ := classAt(s, i+1); c2 == other {
			start = i + 1
		}
	}
	if start >= 0 {
		j := runOf(s, start, other, other)
		for j < len(s) && (s[j] == '\r' || s[j] == '\n') {
			j++
		}
		return j
	}
	// What is left starts a run of white space.
	end := runOf(s, i, space, newline)
	// \s*[\r\n]+ : up to the last line break of the run.
	if k := strings.LastIndexAny(s[i:end], "\r\n"); k >= 0 {
		return i + k + 1
	}
	// \s+(?!\S) : the whole run at the end of the text, else all but its
	// last character (which then leads the next piece), if that leaves any.
	if end == len(s) {
		return end
	}
	if _, last := utf8.DecodeLastRuneInString(s[i:end]); end-last > i {
		return end - last
	}
	// \s+
	return end
}

// validUTF8 replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD, as tiktoken-go's []rune conversion does, so that the pieces and
// their bytes are the same as its.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}
