package tools

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// textInfo describes the encoding conventions of a file's bytes, which
// every write preserves.
type textInfo struct {
	bom     bool
	crlf    bool // CRLF is the dominant line ending
	finalNL bool // the content ends with a line ending
	lines   int
}

func inspectText(b []byte) textInfo {
	ti := textInfo{bom: bytes.HasPrefix(b, utf8BOM)}
	// The dominant line ending is judged on a prefix: files are rarely
	// mixed, and counting CRLF over a whole large file costs a full pass.
	sample := b[:min(len(b), 64<<10)]
	lf := bytes.Count(sample, []byte{'\n'})
	crlf := bytes.Count(sample, []byte("\r\n"))
	ti.crlf = crlf > 0 && crlf*2 >= lf
	ti.finalNL = len(b) > 0 && b[len(b)-1] == '\n'
	ti.lines = countLines(b)
	return ti
}

func (ti textInfo) eol() string {
	if ti.crlf {
		return "\r\n"
	}
	return "\n"
}

// countLines counts lines the way editors number them: a final line
// ending does not start another line; an empty file has zero lines.
func countLines(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	n := bytes.Count(b, []byte{'\n'})
	if b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// lineOffset returns the byte offset where 1-based line n starts; n may be
// lines+1, meaning the end of the content. body excludes any BOM.
func lineOffset(body []byte, n int) int { return lineOffsetFrom(body, 0, 1, n) }

// lineOffsetFrom is lineOffset resuming from a known line start: off is
// where line from starts.
func lineOffsetFrom(body []byte, off, from, n int) int {
	for i := from; i < n; i++ {
		j := bytes.IndexByte(body[off:], '\n')
		if j < 0 {
			return len(body)
		}
		off += j + 1
	}
	return off
}

// binaryKind returns a description when b looks binary ("" for text).
func binaryKind(b []byte) string {
	head := b[:min(len(b), 8000)]
	if bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF}) {
		return "UTF-16 text (not supported; convert it to UTF-8)"
	}
	if bytes.IndexByte(head, 0) < 0 {
		return ""
	}
	ct := http.DetectContentType(head)
	if strings.HasPrefix(ct, "text/") {
		ct = "application/octet-stream"
	}
	return ct
}

// firstInvalidUTF8 returns the 1-based line holding the first byte that is
// not valid UTF-8, or 0.
func firstInvalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return 0
	}
	line := 1
	for i := 0; i < len(b); {
		r, sz := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && sz <= 1 {
			return line
		}
		if b[i] == '\n' {
			line++
		}
		i += sz
	}
	return 0
}

// splitNewContent turns model-supplied text into lines: CRLF is
// normalised, and one trailing newline is a terminator, not an extra empty
// line ("" is no lines, "\n" is one empty line).
func splitNewContent(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// replaceLines replaces lines start..end (1-based; end = start-1 inserts
// before start) of content with newLines, preserving the BOM, the dominant
// line ending and the presence or absence of a final newline. Bytes outside
// the replaced lines are kept exactly.
func replaceLines(content []byte, start, end int, newLines []string) ([]byte, error) {
	out, _, err := replaceLinesInfo(content, inspectText(content), start, end, newLines)
	return out, err
}

// replaceLinesInfo is replaceLines with the file's textInfo already known;
// it also returns the bytes of the replaced lines.
func replaceLinesInfo(content []byte, ti textInfo, start, end int, newLines []string) ([]byte, []byte, error) {
	body := content
	if ti.bom {
		body = content[len(utf8BOM):]
	}
	n := ti.lines
	if start < 1 || end < start-1 || end > n || start > n+1 {
		return nil, nil, fmt.Errorf("lines %d–%d are outside the file's %d lines", start, end, n)
	}
	eol := ti.eol()
	if n == 0 {
		// Empty or new file: conventional final newline.
		ti.finalNL = true
	}
	from := lineOffset(body, start)
	to := from
	if end >= start {
		to = lineOffsetFrom(body, from, start, end+1)
	}
	region := body[from:to]
	var repl []byte
	toEOF := to == len(body)
	switch {
	case len(newLines) == 0:
		if toEOF && !ti.finalNL && start > 1 {
			// Deleting the last line(s) of a file without a final newline:
			// drop the preceding terminator too so it stays without one.
			from = trimEOLBefore(body, from)
		}
	case toEOF && !ti.finalNL && n > 0:
		joined := strings.Join(newLines, eol)
		if from == to && from == len(body) {
			repl = []byte(eol + joined) // appending after an unterminated last line
		} else {
			repl = []byte(joined)
		}
	default:
		repl = []byte(strings.Join(newLines, eol) + eol)
	}
	out := make([]byte, 0, len(content)-(to-from)+len(repl))
	if ti.bom {
		out = append(out, utf8BOM...)
	}
	out = append(out, body[:from]...)
	out = append(out, repl...)
	out = append(out, body[to:]...)
	return out, region, nil
}

func trimEOLBefore(body []byte, off int) int {
	if off > 0 && body[off-1] == '\n' {
		off--
		if off > 0 && body[off-1] == '\r' {
			off--
		}
	}
	return off
}

// conformText applies an existing file's conventions (BOM, line ending,
// final newline) to whole new content from the model.
func conformText(old []byte, content string, existed bool) []byte {
	if !existed {
		return []byte(content)
	}
	ti := inspectText(old)
	s := strings.ReplaceAll(content, "\r\n", "\n")
	s = strings.TrimPrefix(s, "\uFEFF")
	if len(old) > 0 {
		s = strings.TrimRight(s, "\n")
		if ti.finalNL && s != "" {
			s += "\n"
		}
	}
	if ti.crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	if ti.bom {
		s = "\uFEFF" + s
	}
	return []byte(s)
}

// linesOf returns the lines of body (BOM stripped, terminators removed) in
// the 1-based range from..to, clamped.
func linesOf(body []byte, from, to int) []string {
	off := lineOffset(body, from)
	var out []string
	for i := from; i <= to && off < len(body); i++ {
		j := bytes.IndexByte(body[off:], '\n')
		var line []byte
		if j < 0 {
			line = body[off:]
			off = len(body)
		} else {
			line = body[off : off+j]
			off += j + 1
		}
		out = append(out, strings.TrimSuffix(string(line), "\r"))
	}
	return out
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
