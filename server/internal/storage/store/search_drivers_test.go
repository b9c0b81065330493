package store

import (
	"context"
	"slices"
	"testing"
	"time"
)

// The index is not the only way a query is answered: a search within one
// session reads that session's text, and a query whose indexed terms are
// common is driven by a scan for its short terms. Both must find exactly
// what the trigram index finds (case-insensitive substrings, any script).
func TestSearchDriversAgreeWithTheIndex(t *testing.T) {
	s := openTest(t, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	a := mustSession(t, s, NewSession{}).ID
	b := mustSession(t, s, NewSession{}).ID
	texts := []string{
		"The Widget renders ÜBER fast", "a widget qz note", "WIDGETS and gadgets", "über alles, Qz",
		"搜索功能 works for widget", "搜索 only", "Данные виджета: ДАННЫЕ", "данные qz", "nothing here",
		"xx widget yy", "ab wid get", "Éclair éCLAIR widget", "ok qz widget ÜBER",
	}
	for i, text := range texts {
		sid := a
		if i%3 == 2 {
			sid = b
		}
		// Two text parts in some messages: one hit per message still.
		parts := []Part{{Kind: PartText, Text: text}}
		if i%4 == 0 {
			parts = append(parts, Part{Kind: PartText, Text: "second part " + text})
		}
		if _, err := s.AppendMessage(ctx, sid, NewMessage{Role: RoleUser, Parts: parts}); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(hits []SearchHit, session string) []string {
		var out []string
		for _, h := range hits {
			if session == "" || h.SessionID == session {
				out = append(out, h.MessageID)
			}
		}
		slices.Sort(out)
		return out
	}
	queries := []string{"widget", "WIDGET qz", "über", "ÜBER widget", "搜索功能", "搜索", "данные", "ДАННЫЕ qz", "éclair", "qz", "wid get", "xx yy widget", "nomatch"}
	for _, q := range queries {
		global, err := s.Search(ctx, q, SearchOptions{Limit: 200})
		if err != nil {
			t.Fatal(err)
		}
		for _, sid := range []string{a, b} {
			scoped, err := s.Search(ctx, q, SearchOptions{Limit: 200, SessionID: sid})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := ids(scoped, ""), ids(global, sid); !slices.Equal(got, want) {
				t.Errorf("%q in one session: %v, the index finds %v", q, got, want)
			}
		}
		old := indexProbe
		indexProbe = 1 // every indexed term counts as common: the scan drives
		scanned, err := s.Search(ctx, q, SearchOptions{Limit: 200})
		indexProbe = old
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ids(scanned, ""), ids(global, ""); !slices.Equal(got, want) {
			t.Errorf("%q driven by the short-term scan: %v, the index finds %v", q, got, want)
		}
	}
	// The queries above do find things: the comparison is not of empties.
	if hits, _ := s.Search(ctx, "ДАННЫЕ qz", SearchOptions{}); len(hits) != 1 {
		t.Errorf("\"ДАННЫЕ qz\": %d hits, want 1", len(hits))
	}
	if hits, _ := s.Search(ctx, "ÜBER widget", SearchOptions{}); len(hits) != 2 {
		t.Errorf("\"ÜBER widget\": %d hits, want 2", len(hits))
	}
}
