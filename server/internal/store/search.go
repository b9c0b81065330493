package store

import (
	"context"
	"regexp"
	"strings"
	"unicode/utf8"
)

// SearchHit is one message matching a search.
type SearchHit struct {
	SessionID string
	MessageID string
	Seq       int64
	// Snippet is an excerpt of the message text around the first match.
	Snippet string
}

// SearchOptions narrows Search.
type SearchOptions struct {
	// SessionID restricts the search to one session.
	SessionID string
	// Limit defaults to 20; at most 200.
	Limit int
}

const snippetRadius = 60

// MaxSearchQuery bounds a search query: every term becomes an index
// lookup and part of one regular expression, and an 8 MB query once took
// the sidecar to 1.4 GB.
const MaxSearchQuery = 1024

// rankWindow is how many of the newest matches are ranked by relevance;
// see Search. Reading them is most of a query's cost: at 1M messages, two
// terms found in a quarter of all messages took 73 ms for 2,000 matches
// and 32 ms for 500 on the loaded dev machine. 500 is still 25 pages of
// results.
var rankWindow = 500 // a var only so that a test can shrink it

// Search finds messages whose text contains every whitespace-separated
// term of query, case-insensitively and in any script. Terms are literal:
// FTS syntax in the query has no special meaning. Hits are ordered by
// relevance (bm25) among the newest rankWindow matches; a query of terms
// shorter than three characters only, which the trigram index cannot look
// up, is answered by a newest-first scan instead.
func (s *Store) Search(ctx context.Context, query string, o SearchOptions) ([]SearchHit, error) {
	if len(query) > MaxSearchQuery {
		return nil, invalidf("search query is %d bytes long; at most %d are allowed", len(query), MaxSearchQuery)
	}
	terms := strings.Fields(query)
	if len(terms) == 0 {
		return nil, invalidf("empty search query")
	}
	if o.Limit == 0 {
		o.Limit = 20
	}
	if o.Limit < 0 || o.Limit > 200 {
		return nil, invalidf("search limit %d (want 1..200)", o.Limit)
	}
	var phrases []string
	var where []string
	var args []any
	for _, t := range terms {
		// The trigram index cannot look up fewer than three characters.
		if utf8.RuneCountInString(t) >= 3 {
			phrases = append(phrases, `"`+strings.ReplaceAll(t, `"`, `""`)+`"`)
		} else {
			// LIKE folds ASCII case as lower() does, without building
			// a lowered copy of every text: 6x faster on a long scan.
			where = append(where, `p.text LIKE ? ESCAPE '\'`)
			args = append(args, likeContains(t))
		}
	}
	re, err := termsRegexp(terms)
	if err != nil {
		return nil, invalidf("search query: %v", err)
	}
	if len(phrases) == 0 {
		return s.scanShortTerms(ctx, where, args, o, re, nil)
	}
	long, err := longTermFilters(terms)
	if err != nil {
		return nil, invalidf("search query: %v", err)
	}
	match := strings.Join(phrases, " AND ")
	if o.SessionID != "" {
		return s.searchSession(ctx, where, args, o, re, long, terms)
	}
	if len(where) > 0 {
		few, err := s.fewIndexMatches(ctx, match)
		if err != nil {
			return nil, err
		}
		if !few {
			// The indexed terms are common: reading their matches to
			// find the short term's was 3 µs a row, a scan for the
			// short term 1 µs ("qz session": 64 ms of CPU, 22 ms).
			return s.scanShortTerms(ctx, where, args, o, re, long)
		}
	}
	// The index is walked newest first (rowid order, which FTS5 streams)
	// and only the newest rankWindow matches are read and ranked, so the
	// cost is bounded whatever the term; a rare term is still ranked over
	// all its hits. A search within one session ranks all of its matches:
	// the window is global and could hold none of that session's hits.
	// The ranking is bm25 computed here (rank.go), not FTS5's: FTS5 weighs
	// each term by counting every document that holds it, which for a
	// term found in every message of a million is most of the query's
	// time (250 ms of 260 at 100k messages).
	q := `SELECT p.id, p.text FROM message_text_fts f JOIN message_parts p ON p.id = f.rowid WHERE message_text_fts MATCH ?`
	qargs := []any{match}
	for _, w := range where {
		q += ` AND ` + w
	}
	qargs = append(qargs, args...)
	window := rankWindow
	if len(where) > 0 {
		// A term too short for the index is a LIKE filter on the index's
		// matches: reading rankWindow of them meant reading on until that
		// many passed it, half the corpus for a term in one message of a
		// thousand ("qz session": 550 ms at 1M messages). Such a query
		// ranks the newest Limit matches only.
		window = o.Limit
	}
	q += ` ORDER BY f.rowid DESC LIMIT ?`
	qargs = append(qargs, window)
	rows, err := s.r.QueryContext(ctx, q, qargs...)
	if err != nil {
		return nil, err
	}
	var cands []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.partID, &c.text); err != nil {
			rows.Close()
			return nil, err
		}
		cands = append(cands, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rankCandidates(cands, terms)
	return s.hitsFor(ctx, cands, o.Limit, re)
}

// scanShortTerms answers a query of terms too short for the trigram
// index: text parts are scanned newest first (part ids grow with time),
// so the scan stops at Limit hits.
//
// long, when given, are the query's indexed terms, checked here on the
// parts the short terms let through: the query's other driver, for
// indexed terms too common to read their matches (see Search).
func (s *Store) scanShortTerms(ctx context.Context, where []string, args []any, o SearchOptions, re *regexp.Regexp, long []*regexp.Regexp) ([]SearchHit, error) {
	q := `SELECT m.session_id, m.id, m.seq, p.text FROM message_parts p JOIN messages m ON m.id = p.message_id
		WHERE p.kind = 'text'`
	for _, w := range where {
		q += ` AND ` + w
	}
	if o.SessionID != "" {
		q += ` AND m.session_id = ?`
		args = append(args, o.SessionID)
	}
	q += ` ORDER BY p.id DESC`
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	seen := map[string]bool{}
	var hits []SearchHit
	for rows.Next() && len(hits) < o.Limit {
		var h SearchHit
		var text string
		if err := rows.Scan(&h.SessionID, &h.MessageID, &h.Seq, &text); err != nil {
			return nil, err
		}
		if seen[h.MessageID] || !matchesAll(text, long) {
			continue // several text parts of one message matched
		}
		seen[h.MessageID] = true
		h.Snippet = snippet(text, re)
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// indexProbe is how many index matches fewIndexMatches reads at most.
var indexProbe = 2000 // a var only so that a test can force the scan

// fewIndexMatches says whether the indexed terms match fewer than
// indexProbe text parts, reading rowids only (no text): then reading every
// match is cheaper than scanning for the query's short terms.
func (s *Store) fewIndexMatches(ctx context.Context, match string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT rowid FROM message_text_fts WHERE message_text_fts MATCH ? LIMIT ?)`, match, indexProbe).Scan(&n)
	return n < indexProbe, err
}

// searchSession answers a search within one session from the session's
// own text parts, ranking all of its matches. Reading the index's matches
// instead and keeping the session's meant reading every match in the
// store: 0.9 s of CPU for a common term at 1M messages. A session's text
// is read once, the short terms filtered by SQL and the indexed ones here,
// matched as the trigram index matches them (case-insensitive substrings).
func (s *Store) searchSession(ctx context.Context, where []string, args []any, o SearchOptions, re *regexp.Regexp, long []*regexp.Regexp, terms []string) ([]SearchHit, error) {
	q := `SELECT p.id, p.text FROM messages m JOIN message_parts p ON p.message_id = m.id WHERE m.session_id = ? AND p.kind = 'text'`
	qargs := append([]any{o.SessionID}, args...)
	for _, w := range where {
		q += ` AND ` + w
	}
	q += ` ORDER BY p.id DESC`
	rows, err := s.r.QueryContext(ctx, q, qargs...)
	if err != nil {
		return nil, err
	}
	var cands []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.partID, &c.text); err != nil {
			rows.Close()
			return nil, err
		}
		if matchesAll(c.text, long) {
			cands = append(cands, c)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rankCandidates(cands, terms)
	return s.hitsFor(ctx, cands, o.Limit, re)
}

// longTermFilters matches each indexed term (three characters or more) as
// the trigram index does: a case-insensitive substring.
func longTermFilters(terms []string) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	for _, t := range terms {
		if utf8.RuneCountInString(t) < 3 {
			continue
		}
		re, err := regexp.Compile(`(?i)` + regexp.QuoteMeta(t))
		if err != nil {
			return nil, err
		}
		out = append(out, re)
	}
	return out, nil
}

func matchesAll(text string, res []*regexp.Regexp) bool {
	for _, re := range res {
		if !re.MatchString(text) {
			return false
		}
	}
	return true
}

// hitsFor turns ranked text parts into up to limit hits, one per message,
// looking up only the messages of the parts it keeps.
func (s *Store) hitsFor(ctx context.Context, cands []candidate, limit int, re *regexp.Regexp) ([]SearchHit, error) {
	seen := map[string]bool{}
	var hits []SearchHit
	for start := 0; start < len(cands) && len(hits) < limit; start += limit {
		batch := cands[start:min(start+limit, len(cands))]
		ids := make([]any, len(batch))
		for i, c := range batch {
			ids[i] = c.partID
		}
		q := `SELECT p.id, m.session_id, m.id, m.seq FROM message_parts p JOIN messages m ON m.id = p.message_id
			WHERE p.id IN (?` + strings.Repeat(`, ?`, len(ids)-1) + `)`
		rows, err := s.r.QueryContext(ctx, q, ids...)
		if err != nil {
			return nil, err
		}
		byPart := map[int64]SearchHit{}
		for rows.Next() {
			var id int64
			var h SearchHit
			if err := rows.Scan(&id, &h.SessionID, &h.MessageID, &h.Seq); err != nil {
				rows.Close()
				return nil, err
			}
			byPart[id] = h
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		for _, c := range batch {
			h, ok := byPart[c.partID]
			if !ok || seen[h.MessageID] || len(hits) == limit {
				continue // deleted meanwhile, or another part of one message
			}
			seen[h.MessageID] = true
			h.Snippet = snippet(c.text, re)
			hits = append(hits, h)
		}
	}
	return hits, nil
}

// likeContains is a LIKE pattern matching text that contains t literally.
func likeContains(t string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(t) + "%"
}

func termsRegexp(terms []string) (*regexp.Regexp, error) {
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = regexp.QuoteMeta(t)
	}
	return regexp.Compile(`(?i)` + strings.Join(quoted, "|"))
}

// snippet cuts text to about snippetRadius runes either side of the first
// match, on rune boundaries.
func snippet(text string, re *regexp.Regexp) string {
	loc := re.FindStringIndex(text)
	if loc == nil {
		loc = []int{0, 0}
	}
	start, end := loc[0], loc[1]
	for n := 0; start > 0 && n < snippetRadius; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:start])
		start -= size
	}
	for n := 0; end < len(text) && n < snippetRadius; n++ {
		_, size := utf8.DecodeRuneInString(text[end:])
		end += size
	}
	out := strings.Join(strings.Fields(text[start:end]), " ")
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}
