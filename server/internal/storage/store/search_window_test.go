package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// Only the newest rankWindow matches are ranked in a global search, yet
// the newest hits always come back, and a search within one session still
// finds that session's hits older than the window.
func TestSearchRankWindow(t *testing.T) {
	old := rankWindow
	rankWindow = 5
	t.Cleanup(func() { rankWindow = old })
	s := openTest(t, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	a := mustSession(t, s, NewSession{}).ID
	b := mustSession(t, s, NewSession{}).ID
	// The oldest match is in b; ten newer ones fill a.
	if _, err := s.AppendMessage(ctx, b, NewMessage{Role: RoleUser, Parts: []Part{{Kind: PartText, Text: "oldest widget note"}}}); err != nil {
		t.Fatal(err)
	}
	var newest string
	for i := 0; i < 10; i++ {
		m, err := s.AppendMessage(ctx, a, NewMessage{Role: RoleUser, Parts: []Part{{Kind: PartText, Text: fmt.Sprintf("widget number %d", i)}}})
		if err != nil {
			t.Fatal(err)
		}
		newest = m.ID
	}
	hits, err := s.Search(ctx, "widget", SearchOptions{Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 5 {
		t.Fatalf("global search returned %d hits, want the window of 5", len(hits))
	}
	found := false
	for _, h := range hits {
		found = found || h.MessageID == newest
		if h.SessionID != a {
			t.Errorf("hit from outside the newest window: %+v", h)
		}
	}
	if !found {
		t.Errorf("the newest match is missing: %+v", hits)
	}
	hits, err = s.Search(ctx, "widget", SearchOptions{SessionID: b})
	if err != nil || len(hits) != 1 || hits[0].SessionID != b {
		t.Fatalf("session-scoped search past the window: %+v %v", hits, err)
	}
	// Short terms scan newest first and stop at the limit.
	hits, err = s.Search(ctx, "9", SearchOptions{Limit: 1})
	if err != nil || len(hits) != 1 || hits[0].MessageID != newest {
		t.Fatalf("short-term scan is not newest first: %+v %v", hits, err)
	}
}

// A query mixing a short term (a LIKE filter) with indexed ones reads only
// as many index matches as the limit needs, newest first: the newest
// messages holding every term come back, and none is lost when the limit
// covers them all.
func TestSearchMixedShortTermNewestFirst(t *testing.T) {
	s := openTest(t, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	a := mustSession(t, s, NewSession{}).ID
	var both []string // newest last
	for i := 0; i < 12; i++ {
		text := fmt.Sprintf("widget number %d", i)
		if i%2 == 0 {
			text = fmt.Sprintf("widget QZ number %d", i)
		}
		m, err := s.AppendMessage(ctx, a, NewMessage{Role: RoleUser, Parts: []Part{{Kind: PartText, Text: text}}})
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			both = append(both, m.ID)
		}
	}
	if _, err := s.AppendMessage(ctx, a, NewMessage{Role: RoleUser, Parts: []Part{{Kind: PartText, Text: "qz without the other term"}}}); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{3, 20} {
		hits, err := s.Search(ctx, "qz widget", SearchOptions{Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		want := min(limit, len(both))
		if len(hits) != want {
			t.Fatalf("limit %d: %d hits, want %d: %+v", limit, len(hits), want, hits)
		}
		got := map[string]bool{}
		for _, h := range hits {
			got[h.MessageID] = true
		}
		for _, id := range both[len(both)-want:] {
			if !got[id] {
				t.Errorf("limit %d: one of the newest %d matches is missing: %+v", limit, want, hits)
			}
		}
	}
}
