package store

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// candidate is a matching text part awaiting ranking.
type candidate struct {
	partID int64
	text   string
	score  float64
}

// bm25 parameters, FTS5's defaults.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// rankCandidates orders matching parts by bm25 over the terms, best first,
// the newest first among equals (cands arrive newest first).
//
// Every candidate contains every term (the query is an AND), so the terms'
// inverse document frequencies, which would weigh one term against
// another, are the same for all of them and cannot change the order; what
// does is how often each term occurs and how long the text is, against
// the candidates' average length. Occurrences are counted as the index
// matches them: case-insensitive substrings. Lengths are in runes, close
// to the trigram tokenizer's token count.
func rankCandidates(cands []candidate, terms []string) {
	if len(cands) == 0 {
		return
	}
	lower := make([]string, len(terms))
	for i, t := range terms {
		lower[i] = strings.ToLower(t)
	}
	lens := make([]float64, len(cands))
	var total float64
	for i, c := range cands {
		lens[i] = float64(utf8.RuneCountInString(c.text))
		total += lens[i]
	}
	avg := max(total/float64(len(cands)), 1)
	for i := range cands {
		text := strings.ToLower(cands[i].text)
		norm := bm25K1 * (1 - bm25B + bm25B*lens[i]/avg)
		var score float64
		for _, t := range lower {
			tf := float64(strings.Count(text, t))
			score += tf * (bm25K1 + 1) / (tf + norm)
		}
		cands[i].score = score
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
}
