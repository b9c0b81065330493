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
// relevance (bm25) among the newest rankWindow matches; a query with a
// term shorter than three characters, which the trigram index cannot look
// up as it is (search_short.go), returns its newest Limit matches instead.
func (s *Store) Search(ctx context.Context, query string, o SearchOptions) ([]SearchHit, error) {
	if len(query) > MaxSearchQuery {
		return nil, invalidf("search query is %d bytes long; at most %d are allowed", len(query), MaxSearchQuery)
	}
	if o.Limit == 0 {
		o.Limit = 20
	}
	if o.Limit < 0 || o.Limit > 200 {
		return nil, invalidf("search limit %d (want 1..200)", o.Limit)
	}
	q, err := parseSearch(query)
	if err != nil {
		return nil, err
	}
	if o.SessionID != "" {
		return s.searchSession(ctx, q, o)
	}
	if len(q.phrases) == 0 {
		return s.searchShort(ctx, q, o)
	}
	match := strings.Join(q.phrases, " AND ")
	if len(q.where) > 0 {
		few, err := s.fewIndexMatches(ctx, match)
		if err != nil {
			return nil, err
		}
		if !few {
			// The indexed terms are common: reading their matches to
			// find the short term's was 3 µs a row, a scan for the
			// short term 1 µs ("qz session": 64 ms of CPU, 22 ms), and
			// the short term's own trigrams faster still when it is rare.
			return s.searchShort(ctx, q, o)
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
	window := rankWindow
	if len(q.where) > 0 {
		// A term too short for the index is a LIKE filter on the index's
		// matches: reading rankWindow of them meant reading on until that
		// many passed it, half the corpus for a term in one message of a
		// thousand ("qz session": 550 ms at 1M messages). Such a query
		// ranks the newest Limit matches only.
		window = o.Limit
	}
	cands, err := s.readCandidates(ctx,
		andAll(`SELECT p.id, p.text FROM message_text_fts f JOIN message_parts p ON p.id = f.rowid WHERE message_text_fts MATCH ?`, q.where)+` ORDER BY f.rowid DESC LIMIT ?`,
		append(append([]any{match}, q.args...), window), nil)
	if err != nil {
		return nil, err
	}
	rankCandidates(cands, q.terms)
	return s.hitsFor(ctx, cands, o.Limit, q.re)
}

// searchQuery is a parsed query: its terms, how SQL filters them, and how
// Go matches them.
type searchQuery struct {
	terms []string
	// short are the terms under three characters, filtered by where
	// (with args): LIKE, which folds ASCII case as lower() does, without
	// building a lowered copy of every text (6x faster on a long scan).
	short []string
	where []string
	args  []any
	// phrases are the other terms as FTS5 phrases; long matches them as
	// the trigram index does (case-insensitive substrings).
	phrases []string
	long    []*regexp.Regexp
	// re finds any term, for snippets.
	re *regexp.Regexp
}

func parseSearch(query string) (searchQuery, error) {
	q := searchQuery{terms: strings.Fields(query)}
	if len(q.terms) == 0 {
		return q, invalidf("empty search query")
	}
	for _, t := range q.terms {
		if utf8.RuneCountInString(t) < 3 {
			q.short = append(q.short, t)
			q.where = append(q.where, `p.text LIKE ? ESCAPE '\'`)
			q.args = append(q.args, likeContains(t))
			continue
		}
		q.phrases = append(q.phrases, ftsPhrase(t))
		re, err := regexp.Compile(`(?i)` + regexp.QuoteMeta(t))
		if err != nil {
			return q, invalidf("search query: %v", err)
		}
		q.long = append(q.long, re)
	}
	re, err := termsRegexp(q.terms)
	if err != nil {
		return q, invalidf("search query: %v", err)
	}
	q.re = re
	return q, nil
}

// ftsPhrase quotes t as an FTS5 string: literal whatever it holds.
func ftsPhrase(t string) string {
	return `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
}

// andAll appends each filter to q, whose WHERE clause it extends.
func andAll(q string, where []string) string {
	for _, w := range where {
		q += ` AND ` + w
	}
	return q
}

// readCandidates runs q, which selects a part's id and text, and keeps
// the parts keep accepts (every part when keep is nil).
func (s *Store) readCandidates(ctx context.Context, q string, args []any, keep func(text string) bool) ([]candidate, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cands []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.partID, &c.text); err != nil {
			return nil, err
		}
		if keep == nil || keep(c.text) {
			cands = append(cands, c)
		}
	}
	return cands, rows.Err()
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
func (s *Store) searchSession(ctx context.Context, q searchQuery, o SearchOptions) ([]SearchHit, error) {
	cands, err := s.readCandidates(ctx,
		andAll(`SELECT p.id, p.text FROM messages m JOIN message_parts p ON p.message_id = m.id WHERE m.session_id = ? AND p.kind = 'text'`, q.where)+` ORDER BY p.id DESC`,
		append([]any{o.SessionID}, q.args...),
		func(text string) bool { return matchesAll(text, q.long) })
	if err != nil {
		return nil, err
	}
	rankCandidates(cands, q.terms)
	return s.hitsFor(ctx, cands, o.Limit, q.re)
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
