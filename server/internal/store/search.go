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
// see Search.
var rankWindow = 2000 // a var only so that a test can shrink it

// Search finds messages whose text contains every whitespace-separated
// term of query, case-insensitively and in any script. Terms are literal:
// FTS syntax in the query has no special meaning. Hits are ordered by
// relevance (bm25) among the newest rankWindow matches; terms shorter than
// three characters, which the trigram index cannot look up, are found by
// a newest-first scan instead.
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
			where = append(where, `instr(lower(p.text), lower(?)) > 0`)
			args = append(args, t)
		}
	}
	var q string
	var qargs []any
	if len(phrases) > 0 {
		// Ranking every match costs a bm25 per hit: a term found in every
		// message of a million-message store takes seconds. The index is
		// walked newest first (rowid order, which FTS5 streams) and only
		// the newest rankWindow matches are ranked, so the cost is bounded
		// whatever the term; a rare term is still ranked over all its hits.
		q = `SELECT m.session_id, m.id, m.seq, p.text FROM
			(SELECT rowid AS id, rank FROM message_text_fts WHERE message_text_fts MATCH ? ORDER BY rowid DESC LIMIT ?) f
			JOIN message_parts p ON p.id = f.id JOIN messages m ON m.id = p.message_id
			WHERE 1`
		// A search within one session ranks all of its matches: the window
		// is global and could hold none of that session's hits.
		window := rankWindow
		if o.SessionID != "" {
			window = -1
		}
		qargs = append(qargs, strings.Join(phrases, " AND "), window)
	} else {
		// Without a trigram to look up, text parts are scanned newest
		// first (part ids grow with time), so the scan stops at Limit hits.
		q = `SELECT m.session_id, m.id, m.seq, p.text FROM message_parts p JOIN messages m ON m.id = p.message_id
			WHERE p.kind = 'text'`
	}
	for _, w := range where {
		q += ` AND ` + w
	}
	qargs = append(qargs, args...)
	if o.SessionID != "" {
		q += ` AND m.session_id = ?`
		qargs = append(qargs, o.SessionID)
	}
	if len(phrases) > 0 {
		q += ` ORDER BY f.rank`
	} else {
		q += ` ORDER BY p.id DESC`
	}
	rows, err := s.r.QueryContext(ctx, q, qargs...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	re, err := termsRegexp(terms)
	if err != nil {
		return nil, invalidf("search query: %v", err)
	}
	seen := map[string]bool{}
	var hits []SearchHit
	for rows.Next() && len(hits) < o.Limit {
		var h SearchHit
		var text string
		if err := rows.Scan(&h.SessionID, &h.MessageID, &h.Seq, &text); err != nil {
			return nil, err
		}
		if seen[h.MessageID] {
			continue // several text parts of one message matched
		}
		seen[h.MessageID] = true
		h.Snippet = snippet(text, re)
		hits = append(hits, h)
	}
	return hits, rows.Err()
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
