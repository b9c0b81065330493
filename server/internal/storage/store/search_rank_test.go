package store

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Ranking is bm25 over the candidates: more occurrences rank higher, a
// shorter text higher at equal occurrences, and equals stay newest first.
func TestRankCandidatesIsBM25(t *testing.T) {
	pad := strings.Repeat("filler ", 30)
	cands := []candidate{
		{partID: 5, text: "widget " + pad},               // once, long
		{partID: 4, text: "widget"},                      // once, short
		{partID: 3, text: "Widget widget WIDGET " + pad}, // three times, any case
		{partID: 2, text: "widget " + pad},               // same as 5, older
	}
	rankCandidates(cands, []string{"widget"})
	var got []int64
	for _, c := range cands {
		got = append(got, c.partID)
	}
	if want := []int64{4, 3, 5, 2}; !equalIDs(got, want) {
		// bm25 saturates with occurrences: one hit in a 6-rune text beats
		// three in a 230-rune one.
		t.Fatalf("order %v, want %v", got, want)
	}
	// Two terms: the text with both more often wins.
	cands = []candidate{
		{partID: 2, text: "alpha beta"},
		{partID: 1, text: "alpha beta alpha beta"},
	}
	rankCandidates(cands, []string{"ALPHA", "beta"})
	if cands[0].partID != 1 {
		t.Fatalf("two terms: %+v", cands)
	}
	rankCandidates(nil, []string{"x"}) // no candidates, no panic
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A search returns one hit per message even when several of its text
// parts match, and ranks the better match first.
func TestSearchRanksAndDedupsByMessage(t *testing.T) {
	s := openTest(t, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{}).ID
	weak, err := s.AppendMessage(ctx, id, NewMessage{Role: RoleUser, Parts: []Part{
		{Kind: PartText, Text: "the gizmo is mentioned once in this rather long message about other things entirely"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	strong, err := s.AppendMessage(ctx, id, NewMessage{Role: RoleAssistant, Parts: []Part{
		{Kind: PartText, Text: "gizmo gizmo"},
		{Kind: PartText, Text: "gizmo again"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := s.Search(ctx, "gizmo", SearchOptions{})
	if err != nil || len(hits) != 2 {
		t.Fatalf("hits %+v %v", hits, err)
	}
	if hits[0].MessageID != strong.ID || hits[1].MessageID != weak.ID {
		t.Fatalf("order: %+v", hits)
	}
	if hits, _ := s.Search(ctx, "gizmo", SearchOptions{Limit: 1}); len(hits) != 1 || hits[0].MessageID != strong.ID {
		t.Fatalf("limit 1: %+v", hits)
	}
}

// Short terms are scanned with LIKE: its wildcards and escape character in
// a term are literal, and ASCII case is folded as before.
func TestShortTermsAreLiteral(t *testing.T) {
	s := openTest(t, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{}).ID
	for _, text := range []string{"rate is 5% today", "snake_case name", `a\b path`, "plain abc text", "Mixed QZ case"} {
		if _, err := s.AppendMessage(ctx, id, NewMessage{Role: RoleUser, Parts: []Part{{Kind: PartText, Text: text}}}); err != nil {
			t.Fatal(err)
		}
	}
	for q, want := range map[string]int{"%": 1, "_": 1, `\`: 1, "5%": 1, "e_": 1, "qz": 1, "Qz": 1, "%%": 0, "a_c": 0} {
		hits, err := s.Search(ctx, q, SearchOptions{})
		if err != nil || len(hits) != want {
			t.Errorf("%q: %d hits (%+v), want %d; err %v", q, len(hits), hits, want, err)
		}
	}
	// Mixed with a long term, the short one still filters literally.
	if hits, _ := s.Search(ctx, "snake _c", SearchOptions{}); len(hits) != 1 {
		t.Errorf("long and short term: %+v", hits)
	}
}
