package web

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Output sizes, in characters, of one web_fetch result.
const (
	DefaultMaxLength = 16000
	HardMaxLength    = 100000
)

// ErrBinary refuses content that is not text.
type ErrBinary struct{ ContentType string }

func (e ErrBinary) Error() string {
	return fmt.Sprintf("the response is binary content (%s) and cannot be shown as text", e.ContentType)
}

// IsText reports whether a media type is passed through or converted.
func IsText(mt string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"):
		return true
	case mt == "application/json", strings.HasSuffix(mt, "+json"),
		mt == "application/xml", strings.HasSuffix(mt, "+xml"),
		mt == "application/javascript", mt == "application/x-javascript",
		mt == "application/x-yaml", mt == "application/yaml", mt == "application/toml":
		return true
	}
	return false
}

// Document turns a response into the text the model reads: HTML becomes
// Markdown followed by the page's links and description; other text passes
// through unchanged.
func Document(r *Response) (string, error) {
	if !IsText(r.ContentType) {
		return "", ErrBinary{ContentType: r.ContentType}
	}
	if !utf8.Valid(r.Body) {
		r.Body = []byte(strings.ToValidUTF8(string(r.Body), "\uFFFD"))
	}
	if r.ContentType != "text/html" && r.ContentType != "application/xhtml+xml" {
		return string(r.Body), nil
	}
	p, err := HTMLToMarkdown(r.Body, r.FinalURL)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if p.Title != "" {
		fmt.Fprintf(&b, "Title: %s\n", p.Title)
	}
	if p.Description != "" {
		fmt.Fprintf(&b, "Description: %s\n", p.Description)
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	b.WriteString(p.Markdown)
	if len(p.Links) > 0 {
		b.WriteString("\n\nLinks:\n")
		for _, l := range p.Links {
			text := l.Text
			if text == "" {
				text = "(no text)"
			}
			fmt.Fprintf(&b, "- [%s](%s)\n", text, l.URL)
		}
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// Window cuts doc to at most maxLength characters from offset (both in
// characters, never splitting a UTF-8 sequence). next is the offset of the
// following part, or -1 when nothing remains.
func Window(doc string, offset, maxLength int) (part string, next int, total int) {
	if maxLength <= 0 {
		maxLength = DefaultMaxLength
	}
	if maxLength > HardMaxLength {
		maxLength = HardMaxLength
	}
	runes := []rune(doc)
	total = len(runes)
	if offset < 0 {
		offset = 0
	}
	if offset >= total {
		return "", -1, total
	}
	end := offset + maxLength
	if end >= total {
		return string(runes[offset:]), -1, total
	}
	return string(runes[offset:end]), end, total
}
