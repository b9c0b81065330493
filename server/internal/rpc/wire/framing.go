package wire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Framing bounds beyond the ones in stream.go.
const (
	// maxHeaderBlock bounds the header lines of one frame together.
	maxHeaderBlock = 16 << 10
	// junkReportEvery is how much skipped input is reported at once when
	// no frame follows it: a peer streaming junk is heard about, not once
	// per byte and not never.
	junkReportEvery = 64 << 20
	// maxMend bounds the input a body cut short by its declared length
	// may borrow from what follows it (see mend).
	maxMend = 64
	// rereadSlack is how much input may be read again (unread) beyond
	// what was read fresh: bodies re-read as input could otherwise nest
	// (a fake header inside each) and make the work grow with the square
	// of the input.
	rereadSlack = 1 << 20
)

// frameReader reads LSP frames ("Content-Length: N\r\n\r\n" + N bytes)
// from a stream that may hold anything: it resynchronises on the next
// "Content-Length:" wherever it appears (at a line start or not), skips
// and reports what is not a frame, and never stores more than a header
// line, a header block or a declared body. Every header byte is examined
// through Peek before it is consumed, so a header hidden in a line that
// turns out to be junk is still found.
type frameReader struct {
	src *pushback
	r   *bufio.Reader
	// junk counts the bytes skipped since the last frame or report.
	junk int64
	// quiet is set once a problem was reported: the input skipped after it
	// (the rest of a refused body or of a bad header) is part of that
	// problem and not reported again, until the next frame's header.
	quiet bool
	// report is told about each problem; the stream answers it with a
	// parse error.
	report func(error)
	// note is told about skipped junk, which only goes to the log: junk is
	// no one's request, and a reply with a null id confuses clients that
	// number their requests from 0.
	note func(error)
	// reread counts the bytes put back by unread.
	reread int64
}

func newFrameReader(rd io.Reader, report, note func(error)) *frameReader {
	src := &pushback{rd: rd}
	return &frameReader{src: src, r: bufio.NewReaderSize(src, 64<<10), report: report, note: note}
}

// pushback serves bytes put back by unread before its reader's.
type pushback struct {
	chunks [][]byte
	rd     io.Reader
	fresh  int64 // bytes read from rd
}

func (p *pushback) Read(b []byte) (int, error) {
	for len(p.chunks) > 0 {
		if len(p.chunks[0]) == 0 {
			p.chunks[0] = nil
			p.chunks = p.chunks[1:]
			continue
		}
		n := copy(b, p.chunks[0])
		p.chunks[0] = p.chunks[0][n:]
		return n, nil
	}
	n, err := p.rd.Read(b)
	p.fresh += int64(n)
	return n, err
}

// unread puts b back in front of everything not yet consumed: a body that
// turned out to hold the start of the next frame. It refuses (false) once
// the input read again would outgrow the input read fresh by more than
// rereadSlack.
func (f *frameReader) unread(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if f.reread+int64(len(b)) > f.src.fresh+rereadSlack {
		return false
	}
	f.reread += int64(len(b))
	held, _ := f.r.Peek(f.r.Buffered())
	chunks := [][]byte{b}
	if len(held) > 0 {
		chunks = append(chunks, append([]byte(nil), held...))
	}
	f.src.chunks = append(chunks, f.src.chunks...)
	f.r.Reset(f.src)
	return true
}

// skip consumes n bytes of junk.
func (f *frameReader) skip(n int) error {
	f.skipped(n)
	_, err := f.r.Discard(n)
	return err
}

// skipped counts n bytes of junk already consumed.
func (f *frameReader) skipped(n int) {
	if f.quiet {
		return
	}
	f.junk += int64(n)
	if f.junk >= junkReportEvery {
		f.reportJunk("")
	}
}

// problem reports err; what is skipped after it, up to the next frame,
// goes with it.
func (f *frameReader) problem(err error) {
	f.reportJunk(" before a problem")
	f.report(err)
	f.quiet = true
}

// reportJunk reports the skipped bytes, if any, and starts counting anew.
func (f *frameReader) reportJunk(before string) {
	if f.junk == 0 {
		return
	}
	n := f.junk
	f.junk = 0
	f.note(&frameError{msg: fmt.Sprintf("skipped %d bytes of input that were not a JSON-RPC message%s", n, before)})
}

// errLongLine is peekLine's answer for a line over maxHeaderLine bytes.
var errLongLine = errors.New("long line")

// peekLine returns the next line, '\n' included, without consuming it. A
// line longer than maxHeaderLine returns the first maxHeaderLine bytes
// with errLongLine. It waits for input only while it has no whole line:
// never for more than the line needs.
func (f *frameReader) peekLine() ([]byte, error) {
	searched := 0
	for {
		n := min(max(f.r.Buffered(), searched+1), maxHeaderLine)
		b, err := f.r.Peek(n)
		if i := bytes.IndexByte(b[searched:], '\n'); i >= 0 {
			return b[:searched+i+1], nil
		}
		searched = len(b)
		if len(b) >= maxHeaderLine {
			return b, errLongLine
		}
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			return b, err
		}
	}
}

// header reads one frame's header block and returns its Content-Length.
// Junk before it is skipped (and logged when the frame is found); a
// malformed header is answered with a parse error, and the search for the
// next frame goes on.
func (f *frameReader) header() (int64, error) {
	length := int64(-1)
	block := 0 // header bytes of this frame so far
	for {
		line, err := f.peekLine()
		if err != nil && !errors.Is(err, errLongLine) {
			if len(line) == 0 || errors.Is(err, io.EOF) {
				// Whatever is left is not a frame.
				if len(line) > 0 {
					f.skipped(len(line))
					f.r.Discard(len(line))
				}
				f.reportJunk(" at the end of the input")
				return 0, err
			}
			return 0, err
		}
		if i := lastMarker(line); i > 0 {
			// A header in the middle of a line ("GARBAGEContent-Length:
			// 5", or a header cut short before the next one): what
			// precedes it is junk, and the frame starts at the marker. A
			// real header line holds one marker, so only the last one on
			// the line can start a frame.
			if length >= 0 {
				f.problem(&frameError{msg: "a header block was cut off before its end; it is dropped"})
			} else {
				f.skipped(block)
			}
			length, block = -1, 0
			if err := f.skip(i); err != nil {
				return 0, err
			}
			continue
		}
		if errors.Is(err, errLongLine) {
			if indexMarker(line) == 0 {
				f.problem(&frameError{msg: fmt.Sprintf("header line longer than %d bytes", maxHeaderLine)})
				length, block = -1, 0
				// Past the marker, or the search would find it again.
				if err := f.skip(1); err != nil {
					return 0, err
				}
				continue
			}
			// No header starts in this window; keep a tail that may be
			// the start of one. A line that starts like a header (or
			// continues a header block) is reported as an overlong one.
			if length >= 0 || block > 0 || looksLikeHeader(line) {
				f.problem(&frameError{msg: fmt.Sprintf("header line longer than %d bytes", maxHeaderLine)})
				length, block = -1, 0
			}
			if err := f.skip(len(line) - (len(headerMarker) - 1)); err != nil {
				return 0, err
			}
			continue
		}
		f.r.Discard(len(line))
		text := strings.TrimRight(string(line), "\r\n")
		if text == "" {
			switch {
			case length >= 0:
				f.reportJunk(" before a message")
				f.quiet = false
				return length, nil
			case block > 0:
				f.problem(&frameError{msg: "a header block has no Content-Length; it is skipped"})
				block = 0
			}
			// A stray blank line between frames is no one's mistake.
			continue
		}
		block += len(line)
		if block > maxHeaderBlock {
			f.problem(&frameError{msg: fmt.Sprintf("header block longer than %d bytes", maxHeaderBlock)})
			length, block = -1, 0
			continue
		}
		name, value, ok := strings.Cut(text, ":")
		if !ok || !isToken(name) {
			// Not a header: junk, and whatever header block it
			// interrupted is dropped with it.
			if length >= 0 {
				f.problem(&frameError{msg: fmt.Sprintf("malformed header line %q", truncate(text, 80))})
			} else {
				f.skipped(block)
			}
			length, block = -1, 0
			continue
		}
		if !strings.EqualFold(name, "Content-Length") {
			continue // Content-Type, or a header of someone's extension
		}
		n, perr := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if perr != nil || n < 0 {
			f.problem(&frameError{msg: fmt.Sprintf("invalid Content-Length %q", truncate(value, 40))})
			length, block = -1, 0
			continue
		}
		if length >= 0 && n != length {
			// Most likely the header of a frame cut off before its
			// body, then the next frame's: the later one is meant.
			f.note(&frameError{msg: fmt.Sprintf("repeated Content-Length (%d, then %d); the later one is used", length, n)})
		}
		length = n
	}
}

// looksLikeHeader reports whether line starts with "Name:".
func looksLikeHeader(line []byte) bool {
	name, _, ok := strings.Cut(string(line[:min(len(line), 256)]), ":")
	return ok && isToken(name)
}

// isToken reports whether s is a header name (RFC 9110's token).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

var markerBytes = []byte(headerMarker)

// lastMarker finds the last "Content-Length:" in b, ignoring case, or
// returns -1.
func lastMarker(b []byte) int {
	m := markerBytes
	for i := len(b) - len(m); i >= 0; i-- {
		if b[i]|0x20 == 'c' && bytes.EqualFold(b[i:i+len(m)], m) {
			return i
		}
	}
	return -1
}

// indexMarker finds "Content-Length:" in b, ignoring case, or returns -1.
func indexMarker(b []byte) int {
	m := markerBytes
	for i := 0; i+len(m) <= len(b); i++ {
		if b[i]|0x20 == 'c' && bytes.EqualFold(b[i:i+len(m)], m) {
			return i
		}
	}
	return -1
}

// body reads n bytes of body. When the input ends first, what came is
// returned with io.ErrUnexpectedEOF, so a last frame whose length was off
// can still be mended.
func (f *frameReader) body(n int64) ([]byte, error) {
	b := make([]byte, n)
	got, err := io.ReadFull(f.r, b)
	if err != nil {
		return b[:got], io.ErrUnexpectedEOF
	}
	return b, nil
}
