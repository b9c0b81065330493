package compact

import (
	"sync"
	"unicode/utf8"
)

// Token counting is split in two so that its cost per byte is bounded on
// any input: pieceEnd (pretoken.go) splits the text in one pass, and BPE
// counts each piece. tiktoken-go's own BPE is quadratic in the piece
// length, and a run without white space (a minified bundle, base64, a
// FASTA line, "./" repeated) is a single piece: 80 KB of it took 8.8 s.
// Here a piece is merged with a heap (n log n, the same merges in the same
// order as tiktoken's, with ranks from vocab.go), long pieces are counted
// in chunks, and very long ones by a sample of their chunks. tiktoken-go
// exposes neither its pieces nor its merge loop, so both are written out
// here; the tests hold them to its counts.
const (
	// chunkBytes bounds the text one BPE run sees. A piece longer than
	// this is cut at character boundaries; each cut can split one token
	// in two: at most +0.4% on such a piece (a token is 3 bytes or more
	// on average), 0.06% on a FASTA line.
	chunkBytes = 1024
	// samplePieceBytes: a piece longer than this is counted from
	// sampleChunks chunks spread evenly over it and scaled by its length.
	// A single piece is one class of character (letters, or symbols, or
	// white space), so its chunks are alike; ordinary text has no piece
	// this long.
	samplePieceBytes = 16 << 10
	sampleChunks     = 16
	// smallPiece: up to this many bytes tiktoken's own loop (a scan for
	// the lowest rank per merge) is cheaper than a heap.
	smallPiece = 24
)

// counter counts the tokens of one text. work counts the steps taken
// (bytes scanned, rank look-ups, merge-loop scans, heap levels walked):
// tests hold it to a bound per byte, which proves the cost linear without
// timing anything.
type counter struct {
	v    *vocab
	work int
	// Buffers heapMerge reuses across pieces.
	next, prev, rank []int
	h                mergeHeap
}

var counters = sync.Pool{New: func() any { return new(counter) }}

// countText counts the tokens of s with vocabulary v, and reports the work.
func countText(v *vocab, s string) (tokens, work int) {
	c := counters.Get().(*counter)
	c.v, c.work = v, 0
	s = validUTF8(s)
	for i := 0; i < len(s); {
		j := pieceEnd(s, i)
		c.work += j - i
		tokens += c.piece(s[i:j])
		i = j
	}
	work = c.work
	c.v = nil
	counters.Put(c)
	return tokens, work
}

// piece counts one piece: whole, in chunks, or from a sample of chunks.
func (c *counter) piece(p string) int {
	if len(p) <= chunkBytes {
		return c.bpe(p)
	}
	if len(p) <= samplePieceBytes {
		n := 0
		for i := 0; i < len(p); {
			j := cutAt(p, i+chunkBytes)
			n += c.bpe(p[i:j])
			i = j
		}
		return n
	}
	stride := len(p) / sampleChunks
	tokens, bytes := 0, 0
	for k := 0; k < sampleChunks; k++ {
		i := cutAt(p, k*stride)
		j := cutAt(p, i+chunkBytes)
		tokens += c.bpe(p[i:j])
		bytes += j - i
	}
	return int((int64(tokens)*int64(len(p)) + int64(bytes) - 1) / int64(bytes))
}

// cutAt moves i back to a character boundary of p (valid UTF-8), or to
// len(p). A chunk of chunkBytes >= utf8.UTFMax is never empty.
func cutAt(p string, i int) int {
	if i >= len(p) {
		return len(p)
	}
	for i > 0 && !utf8.RuneStart(p[i]) {
		i--
	}
	return i
}

// lookup is the rank of b, or -1.
func (c *counter) lookup(b string) int {
	c.work++
	return c.v.rank(b)
}

// bpe counts the tokens BPE makes of p: repeatedly merge the adjacent
// pair whose joined bytes have the lowest rank (the leftmost on a tie)
// until no joined pair is a token.
func (c *counter) bpe(p string) int {
	if len(p) <= 1 || c.lookup(p) >= 0 {
		return 1
	}
	if len(p) <= smallPiece {
		return c.scanMerge(p)
	}
	return c.heapMerge(p)
}

// scanMerge is tiktoken's loop: parts[i] starts at pos[i]; rank[i] is the
// rank of parts i and i+1 joined.
func (c *counter) scanMerge(p string) int {
	var posBuf, rankBuf [smallPiece + 1]int
	pos, rank := posBuf[:0], rankBuf[:0]
	for i := 0; i <= len(p); i++ {
		pos, rank = append(pos, i), append(rank, -1)
	}
	pairRank := func(i int) int {
		if i+2 < len(pos) {
			return c.lookup(p[pos[i]:pos[i+2]])
		}
		return -1
	}
	for i := range rank {
		rank[i] = pairRank(i)
	}
	for {
		best := -1
		for i := 0; i+1 < len(pos); i++ {
			c.work++
			if rank[i] >= 0 && (best < 0 || rank[i] < rank[best]) {
				best = i
			}
		}
		if best < 0 {
			return len(pos) - 1
		}
		pos = append(pos[:best+1], pos[best+2:]...)
		rank = append(rank[:best+1], rank[best+2:]...)
		rank[best] = pairRank(best)
		if best > 0 {
			rank[best-1] = pairRank(best - 1)
		}
	}
}

// heapMerge makes the same merges as scanMerge in n log n: the parts form
// a linked list, and a heap holds (rank, start) of each joinable pair.
// An entry whose part has gone or whose rank has changed is stale and
// skipped; a part only grows, so its rank never returns to an old value.
func (c *counter) heapMerge(p string) int {
	n := len(p)
	// Part i starts at byte i; next[i] is the start of the part after it
	// (n at the end), prev[i] the one before (-1 at the start); rank[i] is
	// the rank of part i joined with the next one, or -1; rank[i] = -2
	// marks a part merged into its predecessor.
	c.next, c.prev, c.rank = grow(c.next, n), grow(c.prev, n), grow(c.rank, n)
	next, prev, rank := c.next, c.prev, c.rank
	heap := c.h.a[:0]
	pairRank := func(i int) int {
		if j := next[i]; j < n {
			return c.lookup(p[i:next[j]])
		}
		return -1
	}
	for i := 0; i < n; i++ {
		next[i], prev[i] = i+1, i-1
	}
	for i := 0; i < n; i++ {
		if rank[i] = pairRank(i); rank[i] >= 0 {
			heap = append(heap, pair{rank[i], i})
		}
	}
	c.h.steps = 0
	c.h.reset(heap)
	parts := n
	for len(c.h.a) > 0 {
		e := c.h.pop()
		i := e.start
		if rank[i] != e.rank {
			continue
		}
		j := next[i]
		rank[j] = -2
		next[i] = next[j]
		if next[j] < n {
			prev[next[j]] = i
		}
		parts--
		c.push(i, pairRank(i))
		if q := prev[i]; q >= 0 {
			c.push(q, pairRank(q))
		}
	}
	c.work += c.h.steps
	return parts
}

func (c *counter) push(i, r int) {
	c.rank[i] = r
	if r >= 0 {
		c.h.push(pair{r, i})
	}
}

func grow(b []int, n int) []int {
	if cap(b) < n {
		return make([]int, n)
	}
	return b[:n]
}

type pair struct{ rank, start int }

// mergeHeap is a binary min-heap of pairs by (rank, start), written out
// rather than container/heap, whose interface boxes every pushed pair.
// steps counts the levels its operations walk, for counter.work.
type mergeHeap struct {
	a     []pair
	steps int
}

func (h *mergeHeap) less(i, j int) bool {
	a := h.a
	return a[i].rank < a[j].rank || a[i].rank == a[j].rank && a[i].start < a[j].start
}

func (h *mergeHeap) reset(a []pair) {
	h.a = a
	for i := len(a)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(x pair) {
	h.a = append(h.a, x)
	for i := len(h.a) - 1; i > 0; {
		h.steps++
		up := (i - 1) / 2
		if !h.less(i, up) {
			break
		}
		h.a[i], h.a[up] = h.a[up], h.a[i]
		i = up
	}
}

func (h *mergeHeap) pop() pair {
	x := h.a[0]
	last := len(h.a) - 1
	h.a[0] = h.a[last]
	h.a = h.a[:last]
	h.down(0)
	return x
}

func (h *mergeHeap) down(i int) {
	for {
		h.steps++
		l := 2*i + 1
		if l >= len(h.a) {
			return
		}
		m := l
		if r := l + 1; r < len(h.a) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h.a[i], h.a[m] = h.a[m], h.a[i]
		i = m
	}
}
