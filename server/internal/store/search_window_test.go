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
