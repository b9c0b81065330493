package mentions

import (
	"strings"
	"unicode"
)

// Kind of a mention.
type Kind string

const (
	KindFile       Kind = "file"
	KindFolder     Kind = "folder"
	KindProblems   Kind = "problems"
	KindGitChanges Kind = "git-changes"
	KindURL        Kind = "url"
	KindTerminal   Kind = "terminal"
	KindMCP        Kind = "mcp"
	KindSymbol     Kind = "symbol"
)

// Mention is one @token of a message.
type Mention struct {
	Kind   Kind   `json:"kind"`
	Raw    string `json:"raw"`    // as typed, with the '@'
	Target string `json:"target"` // path, URL, server:uri; empty for keywords
	Start  int    `json:"start"`  // byte offsets in the message
	End    int    `json:"end"`
}

// maxMentions bounds how many mentions one message may expand.
const maxMentions = 20

// Parse finds the mentions of text. A mention starts with '@' at the start
// of the text or after whitespace or an opening bracket, so e-mail
// addresses and decorators inside words are not mentions; '\@' escapes;
// nothing inside `code` or ``` fences is a mention. Trailing punctuation
// (.,;:!?) that ends a sentence is not part of the mention.
func Parse(text string) []Mention {
	var out []Mention
	inFence, inCode := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if strings.HasPrefix(text[i:], "```") {
			inFence = !inFence
			i += 2
			continue
		}
		if inFence {
			continue
		}
		if c == '`' {
			inCode = !inCode
			continue
		}
		if inCode || c != '@' {
			continue
		}
		if i > 0 {
			prev := rune(text[i-1])
			if prev == '\\' || !(unicode.IsSpace(prev) || strings.ContainsRune("([{\"'", prev)) {
				continue
			}
		}
		j := i + 1
		for j < len(text) && !unicode.IsSpace(rune(text[j])) && !strings.ContainsRune("`\"'<>)]}", rune(text[j])) {
			j++
		}
		tok := strings.TrimRight(text[i+1:j], ".,;:!?")
		if tok == "" {
			continue
		}
		m := Mention{Raw: "@" + tok, Start: i, End: i + 1 + len(tok)}
		switch {
		case tok == "problems":
			m.Kind = KindProblems
		case tok == "git-changes":
			m.Kind = KindGitChanges
		case tok == "terminal":
			m.Kind = KindTerminal
		case strings.HasPrefix(tok, "http://") || strings.HasPrefix(tok, "https://"):
			m.Kind, m.Target = KindURL, tok
		case strings.HasPrefix(tok, "#") && len(tok) > 1:
			m.Kind, m.Target = KindSymbol, tok[1:]
		case strings.HasPrefix(tok, "mcp:"):
			m.Kind, m.Target = KindMCP, strings.TrimPrefix(tok, "mcp:")
		case strings.HasSuffix(tok, "/") || strings.HasSuffix(tok, "\\"):
			m.Kind, m.Target = KindFolder, tok
		default:
			if !looksLikePath(tok) {
				continue
			}
			m.Kind, m.Target = KindFile, tok
		}
		out = append(out, m)
		if len(out) >= maxMentions {
			break
		}
		i = j - 1
	}
	return out
}

// looksLikePath keeps @word mentions that name files (a dot or a slash)
// and leaves @someone alone.
func looksLikePath(tok string) bool {
	return strings.ContainsAny(tok, "./\\")
}
