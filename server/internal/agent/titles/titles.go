// Package titles names sessions: from the first message at once, and
// from a model's answer when the session is named by a model.
package titles

import (
	"regexp"
	"strings"
	"time"
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

// FromMessage names a session after its first message: code blocks,
// injected context and Markdown markup dropped, whitespace collapsed, cut
// at a word boundary near titleMax characters.
func FromMessage(text string) string {
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

// Timeout bounds the title request: a title that comes late is still
// better than none, but the first-message title already stands in.
const Timeout = 60 * time.Second

// Prompt asks for a title only; model-facing, so English.
const Prompt = "You name coding-assistant sessions. Reply with a title of at most eight words for the session that starts with the user's message: no quotes, no trailing punctuation, in the language of the message. Reply with the title only."

// FromModel keeps the first non-empty line of a model's answer,
// without quotes, Markdown or a "Title:" label, cut like a message title.
func FromModel(s string) string {
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if i := strings.Index(line, ":"); i > 0 && i < 8 && strings.EqualFold(strings.TrimSpace(line[:i]), "title") {
			line = line[i+1:]
		}
		line = strings.Trim(strings.TrimSpace(line), "\"'“”‘’「」`*#")
		return strings.TrimRight(FromMessage(line), ".。")
	}
	return ""
}
