package store

import (
	"cmp"
	"context"
	"database/sql"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Terms shorter than the trigram index's three characters cannot be looked
// up as they are, and scanning for one that no message holds read every
// text part: 0.4 s of CPU at 1M messages. Such a term is found through the
// index all the same: a text of three characters or more holding it holds
// a trigram that starts with it, unless it sits in the text's last two
// characters. So its candidates are the parts holding one of the indexed
// trigrams that start with it (listed by the fts5vocab table
// message_text_vocab, a range of its sorted terms) plus the parts whose
// last one or two characters hold it (the expression indexes
// message_parts_tail1 and message_parts_tail2, migration 0006), which also
// covers texts too short for any trigram. Every candidate is then checked
// with the term's LIKE filter, so what is found is exactly what the scan
// found.
//
// A common short term needs none of this: the newest parts are scanned
// first, which finds its hits at once; only when that window holds fewer
// than the limit are the older parts reached through the rarest short
// term's trigrams.

// shortScanWindow is how many of the newest parts (by id, any kind) are
// scanned before the older ones are reached through the index: 5,000 text
// parts were 5 ms of CPU. A term the window holds fewer than Limit times
// has fewer than Limit × (parts / window) candidates in all (4,000 at 1M
// messages), cheap to list, and only the newest are read.
var shortScanWindow int64 = 5000 // a var only so that a test can move it

// shortCommon: a short term held by more than one in shortCommon of the
// window's text parts is too common to look up (its trigrams' matches
// would be most of the store) and the older parts are scanned instead.
// That takes short terms that are each common but rarely found together.
var shortCommon int64 = 20 // a var only so that a test can force the scan

// maxTermGrams bounds the trigrams one short term is looked up by; a term
// starting more is common, and the older parts are scanned.
var maxTermGrams = 1000 // a var only so that a test can force the scan

// partBatch is how many candidate parts are read per query, newest first.
const partBatch = 200

// The tail lookups; the expressions are those of the indexes.
const (
	tail2Parts = `SELECT id FROM message_parts WHERE kind = 'text' AND lower(substr(text, -2)) = lower(?1) AND id <= ?2`
	tail1Parts = `SELECT id FROM message_parts WHERE kind = 'text' AND lower(substr(text, -1)) = lower(?1) AND id <= ?2
		UNION SELECT id FROM message_parts WHERE kind = 'text' AND lower(substr(text, -2)) BETWEEN lower(?1) AND lower(?1) || char(1114111) AND id <= ?2`
	vocabRange = `SELECT term FROM message_text_vocab WHERE term >= ? AND term <= ?`
)

// searchShort answers a global search with a term under three characters:
// its newest matches first.
func (s *Store) searchShort(ctx context.Context, q searchQuery, o SearchOptions) ([]SearchHit, error) {
	var first, last int64
	// Two subqueries: min() and max() in one select read every row.
	if err := s.r.QueryRowContext(ctx, `SELECT coalesce((SELECT min(id) FROM message_parts), 0), coalesce((SELECT max(id) FROM message_parts), 0)`).Scan(&first, &last); err != nil {
		return nil, err
	}
	h := &shortHits{q: &q, limit: o.Limit, seen: map[string]bool{}}
	edge := last - shortScanWindow
	if err := s.scanParts(ctx, h, edge, last); err != nil || h.full() || edge < first {
		return h.hits, err
	}
	term, ok, err := s.rarestShortTerm(ctx, q, edge)
	if err != nil {
		return nil, err
	}
	var ids []int64
	if ok {
		ids, ok, err = s.shortTermParts(ctx, term, edge)
		if err != nil {
			return nil, err
		}
	}
	if !ok {
		return h.hits, s.scanParts(ctx, h, math.MinInt64, edge)
	}
	return h.hits, s.readParts(ctx, h, ids)
}

// shortHits collects hits newest first, one per message, up to limit.
type shortHits struct {
	q     *searchQuery
	limit int
	seen  map[string]bool
	hits  []SearchHit
}

func (h *shortHits) full() bool { return len(h.hits) >= h.limit }

// read takes hits from rows of (session id, message id, seq, text) that
// passed the short terms' filters, checking the indexed terms here.
func (h *shortHits) read(rows *sql.Rows) error {
	defer rows.Close()
	for !h.full() && rows.Next() {
		var hit SearchHit
		var text string
		if err := rows.Scan(&hit.SessionID, &hit.MessageID, &hit.Seq, &text); err != nil {
			return err
		}
		if h.seen[hit.MessageID] || !matchesAll(text, h.q.long) {
			continue // several text parts of one message matched
		}
		h.seen[hit.MessageID] = true
		hit.Snippet = snippet(text, h.q.re)
		h.hits = append(h.hits, hit)
	}
	return rows.Err()
}

const partHits = `SELECT m.session_id, m.id, m.seq, p.text FROM message_parts p JOIN messages m ON m.id = p.message_id WHERE p.kind = 'text'`

// scanParts scans the text parts with above < id <= upTo, newest first,
// until h is full.
func (s *Store) scanParts(ctx context.Context, h *shortHits, above, upTo int64) error {
	q := andAll(partHits+` AND p.id > ? AND p.id <= ?`, h.q.where) + ` ORDER BY p.id DESC`
	rows, err := s.r.QueryContext(ctx, q, append([]any{above, upTo}, h.q.args...)...)
	if err != nil {
		return err
	}
	return h.read(rows)
}

// readParts reads the candidate parts ids (newest first) in batches until
// h is full.
func (s *Store) readParts(ctx context.Context, h *shortHits, ids []int64) error {
	for start := 0; start < len(ids) && !h.full(); start += partBatch {
		batch := ids[start:min(start+partBatch, len(ids))]
		args := make([]any, 0, len(batch)+len(h.q.args))
		for _, id := range batch {
			args = append(args, id)
		}
		q := andAll(partHits+` AND p.id IN (?`+strings.Repeat(`, ?`, len(batch)-1)+`)`, h.q.where) + ` ORDER BY p.id DESC`
		rows, err := s.r.QueryContext(ctx, q, append(args, h.q.args...)...)
		if err != nil {
			return err
		}
		if err := h.read(rows); err != nil {
			return err
		}
	}
	return nil
}

// rarestShortTerm picks the short term to look the older parts up by: the
// one held by the fewest of the window's text parts. ok is false when even
// that one is common (see shortCommon).
func (s *Store) rarestShortTerm(ctx context.Context, q searchQuery, edge int64) (term string, ok bool, err error) {
	if len(q.short) == 1 {
		// The only candidate. When it is common but rarely beside the
		// query's indexed terms, listing its trigrams' matches costs
		// about what a scan would, and maxTermGrams stops the worst.
		return q.short[0], true, nil
	}
	sel := `SELECT count(*)`
	for range q.short {
		sel += `, coalesce(sum(p.text LIKE ? ESCAPE '\'), 0)`
	}
	counts := make([]int64, len(q.short)+1)
	dest := make([]any, len(counts))
	for i := range counts {
		dest[i] = &counts[i]
	}
	err = s.r.QueryRowContext(ctx, sel+` FROM message_parts p WHERE p.kind = 'text' AND p.id > ?`,
		append(slices.Clone(q.args), edge)...).Scan(dest...)
	if err != nil {
		return "", false, err
	}
	best := 0
	for i := range q.short {
		if counts[i+1] < counts[best+1] {
			best = i
		}
	}
	return q.short[best], counts[best+1]*shortCommon <= counts[0], nil
}

// shortTermParts lists, newest first, the text parts with id <= upTo that
// may hold the short term t. ok is false when t starts more than
// maxTermGrams trigrams. The query's indexed terms are not part of the
// lookup: they are common here (see Search), and FTS5 checking a common
// phrase on each candidate cost 90 ms for 1,000 candidates at 1M
// messages ("qz session"), against 2 ms to read the candidates' text and
// match it in Go.
func (s *Store) shortTermParts(ctx context.Context, t string, upTo int64) (ids []int64, ok bool, err error) {
	grams, err := s.gramsStartingWith(ctx, t)
	if err != nil || len(grams) > maxTermGrams {
		return nil, false, err
	}
	if len(grams) > 0 {
		alts := make([]string, len(grams))
		for i, g := range grams {
			alts[i] = ftsPhrase(g)
		}
		if ids, err = s.ids(ctx, ids, `SELECT rowid FROM message_text_fts WHERE message_text_fts MATCH ? AND rowid <= ?`, strings.Join(alts, " OR "), upTo); err != nil {
			return nil, false, err
		}
	}
	tail := tail2Parts
	if utf8.RuneCountInString(t) == 1 {
		tail = tail1Parts
	}
	if ids, err = s.ids(ctx, ids, tail, t, upTo); err != nil {
		return nil, false, err
	}
	slices.SortFunc(ids, func(a, b int64) int { return cmp.Compare(b, a) })
	return slices.Compact(ids), true, nil
}

// ids appends the ids q selects to out.
func (s *Store) ids(ctx context.Context, out []int64, q string, args ...any) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// gramsStartingWith lists the indexed trigrams that start with t as the
// index folds it (foldedForms).
func (s *Store) gramsStartingWith(ctx context.Context, t string) ([]string, error) {
	var grams []string
	for _, f := range foldedForms(t) {
		rows, err := s.r.QueryContext(ctx, vocabRange, f, f+"\U0010FFFF\U0010FFFF")
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var g string
			if err := rows.Scan(&g); err != nil {
				rows.Close()
				return nil, err
			}
			grams = append(grams, g)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if len(grams) > maxTermGrams {
			break
		}
	}
	return grams, nil
}

// foldedForms are the forms the index may hold t in. It folds case one
// character at a time: ASCII as lower() does, other characters by SQLite's
// own table, which need not agree with Go's, so every case form of a
// non-ASCII character is tried (a form the index never holds finds
// nothing). A LIKE filter matches non-ASCII characters exactly, and any of
// its matches folds to one of these forms.
func foldedForms(t string) []string {
	forms := []string{""}
	for _, r := range t {
		cs := []rune{unicode.ToLower(r)}
		if r >= utf8.RuneSelf {
			cs = caseForms(r)
		}
		next := make([]string, 0, len(forms)*len(cs))
		for _, f := range forms {
			for _, c := range cs {
				next = append(next, f+string(c))
			}
		}
		forms = next
	}
	return forms
}

// caseForms is r with its lower, upper and case-folding equivalents.
func caseForms(r rune) []rune {
	out := []rune{r}
	add := func(c rune) {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	add(unicode.ToLower(r))
	add(unicode.ToUpper(r))
	for c := unicode.SimpleFold(r); c != r; c = unicode.SimpleFold(c) {
		add(c)
	}
	return out
}
