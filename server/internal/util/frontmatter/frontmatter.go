// Package frontmatter splits Markdown files that start with a YAML header
// (skills, custom agents, custom commands, prompt files) and decodes the
// header with errors that carry the line number in the file, so a user can
// fix a malformed file from the message alone.
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Error is a problem in one file, at a 1-based line (0 when unknown).
type Error struct {
	Line    int
	Message string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Message)
	}
	return e.Message
}

// Doc is a split file.
type Doc struct {
	// Head is the YAML between the two '---' lines; nil when the file has
	// no frontmatter.
	Head []byte
	// Body is everything after the closing '---' line.
	Body string
	// BodyLine is the 1-based line on which Body starts.
	BodyLine int
}

// Split separates the frontmatter from the body. CRLF line endings are
// normalised. required says whether a file without frontmatter is an
// error; when it is not, the whole file is the body.
func Split(data []byte, required bool) (Doc, error) {
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(data, []byte("---\n")) {
		if required {
			return Doc{}, &Error{Line: 1, Message: "missing YAML frontmatter: the file must start with a line '---'"}
		}
		return Doc{Body: string(data), BodyLine: 1}, nil
	}
	rest := data[4:]
	var end int
	if bytes.HasPrefix(rest, []byte("---")) {
		end = -1 // "---\n---": empty header
		if len(rest) == 3 || rest[3] == '\n' {
			body := ""
			if len(rest) > 4 {
				body = string(rest[4:])
			}
			return Doc{Head: []byte{}, Body: body, BodyLine: 3}, nil
		}
	} else {
		end = bytes.Index(rest, []byte("\n---"))
	}
	if end < 0 {
		return Doc{}, &Error{Line: 1, Message: "the frontmatter opened on line 1 is never closed with '---'"}
	}
	head, body := rest[:end+1], rest[end+4:]
	if i := bytes.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	} else {
		body = nil
	}
	return Doc{Head: head, Body: string(body), BodyLine: bytes.Count(head, []byte("\n")) + 3}, nil
}

var yamlLine = regexp.MustCompile(`line (\d+): `)

// Decode unmarshals the header into v. strict refuses unknown keys (for
// GoVibe's own formats); formats read from other tools are decoded
// leniently, since they grow fields GoVibe does not use.
func (d Doc) Decode(v any, strict bool) error {
	if len(bytes.TrimSpace(d.Head)) == 0 {
		return nil
	}
	err := decode(d.Head, v, strict)
	if err == nil {
		return nil
	}
	line := 0
	var te *yaml.TypeError
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		// The opening '---' is line 1. yaml.v3 numbers the lines of type
		// errors from 1, but a parser error's context from 0.
		line = n + 1
		if !errors.As(err, &te) && strings.Contains(err.Error(), "did not find expected") {
			line++
		}
		if !errors.As(err, &te) {
			line = d.syntaxLine(line, err.Error())
		}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n  ")
	msg = yamlLine.ReplaceAllString(msg, "")
	// "already defined at line N" counts from the header's first line.
	msg = atLine.ReplaceAllStringFunc(msg, func(m string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(m, "at line "))
		return fmt.Sprintf("at line %d", n+1)
	})
	return &Error{Line: line, Message: "invalid frontmatter: " + strings.TrimLeft(msg, ": ")}
}

var atLine = regexp.MustCompile(`at line \d+`)

// DecodeAsWritten is Decode(v, false) for files other tools read with a
// line-tolerant frontmatter reader (Claude Code's commands): a top-level
// one-line value YAML cannot take by itself, such as Claude Code's own
// `argument-hint: [pr-number] [priority] [assignee]`, is the text it reads
// as. Anything else malformed is still Decode's error, with its line.
func (d Doc) DecodeAsWritten(v any) error {
	err := d.Decode(v, false)
	if err == nil {
		return nil
	}
	if head, ok := plainValues(d.Head); ok && decode(head, v, false) == nil {
		return nil
	}
	return err
}

// syntaxLine corrects yaml.v3's line for a construct left open (a quote,
// '[' or '{'): it reports where it gave up, often the end of the header
// or, for a construct on the header's first line, past it. The line that
// opened the construct is what the user must fix; any line reported
// past the header's last non-blank line is that last line.
func (d Doc) syntaxLine(line int, msg string) int {
	lines := strings.Split(strings.TrimRight(string(d.Head), "\n"), "\n")
	last := 1
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			last = i + 2
		}
	}
	if !strings.Contains(msg, "unexpected end of stream") && !strings.Contains(msg, "did not find expected") {
		return min(line, last)
	}
	for i := min(line, last) - 2; i >= 0; i-- {
		if opensConstruct(lines[i]) {
			return i + 2
		}
	}
	return min(line, last)
}

// opensConstruct says whether a header line leaves a quoted value, a flow
// sequence or a flow mapping open.
func opensConstruct(l string) bool {
	v := strings.TrimSpace(l)
	if strings.HasPrefix(v, "#") {
		return false
	}
	if _, after, ok := strings.Cut(v, ": "); ok && !strings.HasPrefix(v, "- ") {
		v = strings.TrimSpace(after)
	}
	v = strings.TrimSpace(strings.TrimPrefix(v, "- "))
	switch {
	case strings.HasPrefix(v, `"`):
		return strings.Count(strings.ReplaceAll(v, `\"`, ""), `"`)%2 == 1
	case strings.HasPrefix(v, "'"):
		return strings.Count(strings.ReplaceAll(v, "''", ""), "'")%2 == 1
	}
	return strings.Count(v, "[") > strings.Count(v, "]") || strings.Count(v, "{") > strings.Count(v, "}")
}

// FieldLine is the 1-based file line of a top-level key, or 1.
func (d Doc) FieldLine(key string) int {
	for i, l := range strings.Split(string(d.Head), "\n") {
		if strings.HasPrefix(l, key+":") {
			return i + 2
		}
	}
	return 1
}

func decode(head []byte, v any, strict bool) error {
	dec := yaml.NewDecoder(bytes.NewReader(head))
	dec.KnownFields(strict)
	return dec.Decode(v)
}

var topLevelKey = regexp.MustCompile(`^([A-Za-z0-9_][A-Za-z0-9_.-]*):[ \t]+(\S.*?)[ \t]*$`)

// plainValues rewrites every top-level one-line `key: value` whose value
// is not valid YAML by itself as a quoted string of the same text, the
// way line-based frontmatter readers (Claude Code's among them) take it;
// ok is false when nothing needed it. A value continued on indented lines
// is left alone: it is YAML, right or wrong.
func plainValues(head []byte) ([]byte, bool) {
	lines := strings.Split(string(head), "\n")
	changed := false
	for i, l := range lines {
		m := topLevelKey.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(m[2], "#") {
			continue
		}
		if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" && (lines[i+1][0] == ' ' || lines[i+1][0] == '\t') {
			continue
		}
		var probe any
		if yaml.Unmarshal([]byte("k: "+m[2]), &probe) == nil {
			continue
		}
		q, err := yaml.Marshal(m[2])
		if err != nil {
			continue
		}
		lines[i] = m[1] + ": " + strings.TrimSpace(string(q))
		changed = true
	}
	return []byte(strings.Join(lines, "\n")), changed
}
