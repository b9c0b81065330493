package tools

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// grepGo is the engine used without ripgrep: a parallel walk honouring
// .gitignore, skipping hidden and binary (NUL-containing) files, with the
// same matching rules as rg --fixed-strings/--ignore-case.
func grepGo(ctx context.Context, base, start string, q grepQuery, limit int) ([]grepHit, error) {
	m, err := newMatcher(q)
	if err != nil {
		return nil, err
	}
	if base == "" {
		base = start
	}
	var (
		mu   sync.Mutex
		hits []grepHit
	)
	emit := func(rel string, hs []grepHit) bool {
		mu.Lock()
		defer mu.Unlock()
		for i := range hs {
			hs[i].rel = rel
		}
		hits = append(hits, hs...)
		return len(hits) < limit && ctx.Err() == nil
	}
	fi, err := os.Stat(start)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		var buf []byte
		if hs := searchFile(start, m, &buf, false); len(hs) > 0 {
			emit(filepath.Base(start), hs)
		}
		return capHits(hits, limit), nil
	}
	opt := walkOptions{skipDir: func(rel string) bool {
		for _, g := range q.excludes {
			if globMatch(g, rel) {
				return true
			}
		}
		return false
	}}
	if len(q.includes) > 0 {
		opt.forceFile = func(path string) bool {
			rel, err := filepath.Rel(start, path)
			return err == nil && q.wants(filepath.ToSlash(rel))
		}
	}
	bufs := sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}
	walkFiles(base, start, opt, func(path, _ string) bool {
		rel, err := filepath.Rel(start, path)
		if err != nil {
			return true
		}
		rel = filepath.ToSlash(rel)
		if !q.wants(rel) {
			return ctx.Err() == nil
		}
		bp := bufs.Get().(*[]byte)
		hs := searchFile(path, m, bp, true)
		bufs.Put(bp)
		if len(hs) == 0 {
			return ctx.Err() == nil
		}
		return emit(rel, hs)
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return capHits(hits, limit), nil
}

func capHits(h []grepHit, limit int) []grepHit {
	if len(h) > limit {
		return h[:limit]
	}
	return h
}

func (q grepQuery) wants(rel string) bool {
	for _, g := range q.excludes {
		if globMatch(g, rel) {
			return false
		}
	}
	if len(q.includes) == 0 {
		return true
	}
	for _, g := range q.includes {
		if globMatch(g, rel) {
			return true
		}
	}
	return false
}

// matcher is a compiled query; immutable and safe for concurrent use.
type matcher struct {
	literal []byte // nil for a regexp
	fold    bool   // literal is lower-case ASCII; match it ASCII-case-blind
	anchor  int    // index in literal of the rarest byte, scanned for first
	re      *regexp.Regexp
	line    *regexp.Regexp // re without (?m), for single-line verification
}

func newMatcher(q grepQuery) (*matcher, error) {
	if !q.regex {
		asciiPat := isASCII(q.pattern)
		if q.caseSensitive {
			return &matcher{literal: []byte(q.pattern)}, nil
		}
		if asciiPat && !hasFoldSpecial(q.pattern) {
			lit := []byte(strings.ToLower(q.pattern))
			return &matcher{literal: lit, fold: true, anchor: rarestByte(lit)}, nil
		}
		return newRegexMatcher(regexp.QuoteMeta(q.pattern), true)
	}
	return newRegexMatcher(q.pattern, !q.caseSensitive)
}

// hasFoldSpecial reports ASCII letters whose Unicode case folding reaches
// non-ASCII runes (k → K Kelvin sign, s → ſ); those go through regexp so
// the result matches ripgrep's Unicode-aware -i.
func hasFoldSpecial(s string) bool { return strings.ContainsAny(strings.ToLower(s), "ks") }

func newRegexMatcher(expr string, fold bool) (*matcher, error) {
	flags := "(?m)"
	if fold {
		flags = "(?mi)"
	}
	re, err := regexp.Compile(flags + expr)
	if err != nil {
		return nil, err
	}
	lineFlags := ""
	if fold {
		lineFlags = "(?i)"
	}
	line := regexp.MustCompile(lineFlags + expr)
	return &matcher{re: re, line: line}, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// grepMaxFile bounds one file the Go engine reads whole; a bigger one
// (a log, a dump) is skipped rather than held in memory once per worker.
const grepMaxFile = defaultMaxFileSize

// searchFile returns the matching lines of one file (line and text only).
// Files containing a NUL byte are binary and skipped, as ripgrep does.
// entry says path is a walker's entry, known not to be a symbolic link: a
// link swapped in since the listing is not followed. A file that turned
// into a FIFO or a device is not read (safefile checks the descriptor).
func searchFile(path string, m *matcher, bp *[]byte, entry bool) []grepHit {
	f, fi, err := safefile.Open(path, safefile.Options{NoFollow: entry})
	if err != nil {
		return nil
	}
	defer f.Close()
	size := fi.Size()
	if size > grepMaxFile {
		return nil
	}
	buf := (*bp)[:0]
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+512)
	}
	r := io.LimitReader(f, grepMaxFile+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil
		}
	}
	*bp = buf
	if int64(len(buf)) > grepMaxFile {
		return nil // grew past the bound while it was read
	}
	if bytes.IndexByte(buf, 0) >= 0 {
		return nil
	}
	return m.lines(buf)
}

func (m *matcher) lines(buf []byte) []grepHit {
	var hits []grepHit
	line, counted := 1, 0 // line number of offset counted
	pos := 0
	for pos < len(buf) {
		var at int
		if m.fold {
			at = m.foldIndex(buf, pos)
			if at < 0 {
				break
			}
		} else if m.literal != nil {
			i := bytes.Index(buf[pos:], m.literal)
			if i < 0 {
				break
			}
			at = pos + i
		} else {
			loc := m.re.FindIndex(buf[pos:])
			if loc == nil {
				break
			}
			at = pos + loc[0]
		}
		ls := bytes.LastIndexByte(buf[:at], '\n') + 1
		le := bytes.IndexByte(buf[at:], '\n')
		if le < 0 {
			le = len(buf)
		} else {
			le += at
		}
		text := buf[ls:le]
		if m.re != nil && !m.line.Match(text) {
			// The match spanned lines; ripgrep matches within lines only.
			pos = le + 1
			continue
		}
		line += bytes.Count(buf[counted:ls], []byte{'\n'})
		counted = ls
		hits = append(hits, grepHit{line: line, text: string(bytes.TrimSuffix(clipBytes(text), []byte{'\r'}))})
		pos = le + 1
	}
	return hits
}

func clipBytes(b []byte) []byte {
	if len(b) > 4*grepMaxLineLen {
		return b[:4*grepMaxLineLen]
	}
	return b
}

// byteCommonness orders bytes from most to least common in source code;
// bytes not listed are rarer still. Scanning for a rare byte first keeps
// the number of candidate positions to verify small.
const byteCommonness = " e\tt\nanirosl.cd(u)p\"fm,g_h:=;b/y{}vk*xw<>-[]&0'1j!2q+z3|%#$9z"

func rarestByte(lit []byte) int {
	best, bestRank := 0, -1
	for i, c := range lit {
		r := strings.IndexByte(byteCommonness, c)
		if r < 0 {
			r = len(byteCommonness)
		}
		if 'a' <= c && c <= 'z' {
			r -= 3 // a letter costs two scans (both cases)
		}
		if r > bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

// foldIndex finds the lower-case ASCII literal in buf at or after from,
// ignoring ASCII case, by scanning for the anchor byte (in both cases) with
// the vectorised IndexByte and verifying around each hit.
func (m *matcher) foldIndex(buf []byte, from int) int {
	lit, k := m.literal, m.anchor
	lo := lit[k]
	up := lo
	if 'a' <= lo && lo <= 'z' {
		up = lo - ('a' - 'A')
	}
	nextLo, nextUp := -2, -2 // -2: not searched yet; -1: none left
	for p := from + k; p < len(buf); {
		if nextLo != -1 && nextLo < p {
			if i := bytes.IndexByte(buf[p:], lo); i >= 0 {
				nextLo = p + i
			} else {
				nextLo = -1
			}
		}
		if up != lo && nextUp != -1 && nextUp < p {
			if i := bytes.IndexByte(buf[p:], up); i >= 0 {
				nextUp = p + i
			} else {
				nextUp = -1
			}
		}
		c := nextLo
		if up != lo && nextUp >= 0 && (c < 0 || nextUp < c) {
			c = nextUp
		}
		if c < 0 {
			return -1
		}
		start := c - k
		if start+len(lit) <= len(buf) && equalFoldASCII(buf[start:start+len(lit)], lit) {
			return start
		}
		p = c + 1
	}
	return -1
}

// equalFoldASCII compares b with the lower-case ASCII lit, ignoring case.
func equalFoldASCII(b, lit []byte) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}
