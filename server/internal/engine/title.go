package engine

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// titleMax is how many characters of the first message name a session.
const titleMax = 60

var (
	titleBlocks  = regexp.MustCompile("(?s)<context>.*?</context>|```.*?(```|$)")
	titleMarkup  = regexp.MustCompile("[`*_~]+|^\\s*(#{1,6}|>|[-+*]|\\d+[.)])\\s+")
	titleSpaces  = regexp.MustCompile(`\s+`)
	titleLinkRef = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// sessionTitle names a session after its first message: code blocks,
// injected context and Markdown markup dropped, whitespace collapsed, cut
// at a word boundary near titleMax characters.
func sessionTitle(text string) string {
	s := titleBlocks.ReplaceAllString(text, " ")
	s = titleLinkRef.ReplaceAllString(s, "$1")
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(titleMarkup.ReplaceAllString(l, "")); l != "" {
			lines = append(lines, l)
		}
	}
	s = strings.TrimSpace(titleSpaces.ReplaceAllString(strings.Join(lines, " "), " "))
	if utf8.RuneCountInString(s) <= titleMax {
		return s
	}
	r := []rune(s)[:titleMax]
	cut := string(r)
	// Prefer ending on a whole word when one ends in the last third.
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)*2/3 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:-") + "…"
}
