package shell

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// capBuffer keeps the first and last limit bytes written to it, so memory
// stays bounded however much a command prints. Safe for concurrent Write.
type capBuffer struct {
	mu    sync.Mutex
	limit int
	head  []byte
	tail  []byte // ring contents in order, at most limit bytes
	total int
}

func newCapBuffer(limit int) *capBuffer { return &capBuffer{limit: limit} }

func (b *capBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.total += n
	if room := b.limit - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) > 0 {
		b.tail = append(b.tail, p...)
		if over := len(b.tail) - b.limit; over > 0 {
			b.tail = append(b.tail[:0], b.tail[over:]...)
		}
	}
	return n, nil
}

// text returns the stream trimmed to at most budget characters, keeping
// its head and tail around an omission marker.
func (b *capBuffer) text(budget int) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	full := string(b.head) + string(b.tail)
	if b.total == len(full) && utf8.RuneCountInString(full) <= budget {
		return strings.ToValidUTF8(full, "\uFFFD"), false
	}
	headS := strings.ToValidUTF8(string(b.head), "\uFFFD")
	tailS := strings.ToValidUTF8(string(b.tail), "\uFFFD")
	h := takeRunes(headS, budget/2)
	t := lastRunes(tailS, budget-budget/2)
	if len(b.tail) == 0 {
		// Everything is in head but it is longer than the budget.
		t = lastRunes(headS, budget-budget/2)
	}
	omitted := b.total - len(h) - len(t)
	return fmt.Sprintf("%s\n... [%d bytes omitted] ...\n%s", h, omitted, t), true
}

func (b *capBuffer) size() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

// finish splits the character budget between the streams: stderr gets at
// most a third when both are large, since stdout usually carries the bulk.
func finish(stdout, stderr *capBuffer, limit int) (string, string, bool) {
	so, se := stdout.size(), stderr.size()
	outBudget, errBudget := limit, limit
	if so+se > limit {
		errBudget = min(se, max(limit/3, limit-so))
		outBudget = limit - errBudget
	}
	o, t1 := stdout.text(outBudget)
	e, t2 := stderr.text(errBudget)
	return o, e, t1 || t2
}

func takeRunes(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, sz := utf8.DecodeRuneInString(s[i:])
		i += sz
	}
	return s[:i]
}

func lastRunes(s string, n int) string {
	i := len(s)
	for k := 0; k < n && i > 0; k++ {
		_, sz := utf8.DecodeLastRuneInString(s[:i])
		i -= sz
	}
	return s[i:]
}

var keyErrorRe = regexp.MustCompile(`(?i)(\berror\b[:\[]|\berror TS\d+|^\s*FAIL\b|--- FAIL|\bpanic:|^Traceback \(most recent call last\)|\bException\b|\bfatal:|\bFATAL\b|\bundefined:|\bcannot find\b|\bnot found\b|segmentation fault|^E\s{2,}|\bERR!)`)

// KeyErrors pulls up to 20 distinct error-looking lines out of output so
// the model and the UI can see the failure without reading everything.
func KeyErrors(output string) []string {
	out := []string{}
	seen := map[string]bool{}
	for line := range strings.SplitSeq(output, "\n") {
		line = strings.TrimRight(line, "\r")
		if !keyErrorRe.MatchString(line) {
			continue
		}
		line = strings.TrimSpace(line)
		if len(line) > 300 {
			line = takeRunes(line, 300) + "…"
		}
		if seen[line] {
			continue
		}
		seen[line] = true
		out = append(out, line)
		if len(out) == 20 {
			break
		}
	}
	return out
}
