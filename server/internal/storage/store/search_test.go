package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSearchFindsTextAcrossSessions(t *testing.T) {
	s := openTest(t, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	a := mustSession(t, s, NewSession{}).ID
	b := mustSession(t, s, NewSession{}).ID
	ids, w, _ := s.BeginTurn(ctx, a, "Please refactor the ParseConfig function", TurnOptions{})
	w.AppendText("I renamed ParseConfig to LoadConfig. ")
	w.AppendText("修复了数据库连接的问题")
	w.AddToolCall(ctx, ToolCall{ID: "c", Name: "grep", Arguments: `{"q":"toolonlyword"}`})
	w.AppendReasoning("secretthought")
	w.Finalize(ctx, StatusDone, nil)
	s.AppendMessage(ctx, b, NewMessage{Role: RoleUser, Parts: []Part{{Kind: PartText, Text: "go build failed in parseconfig.go"}}})

	hits, err := s.Search(ctx, "parseconfig", SearchOptions{})
	if err != nil || len(hits) != 3 {
		t.Fatalf("case-insensitive search: %+v %v", hits, err)
	}
	hits, _ = s.Search(ctx, "ParseConfig LoadConfig", SearchOptions{})
	if len(hits) != 1 || hits[0].MessageID != ids.AssistantMessageID || hits[0].SessionID != a ||
		!strings.Contains(hits[0].Snippet, "ParseConfig") {
		t.Fatalf("AND of terms: %+v", hits)
	}
	hits, _ = s.Search(ctx, "数据库", SearchOptions{})
	if len(hits) != 1 || !strings.Contains(hits[0].Snippet, "数据库连接") {
		t.Fatalf("CJK substring: %+v", hits)
	}
	hits, _ = s.Search(ctx, "go", SearchOptions{SessionID: b})
	if len(hits) != 1 || hits[0].SessionID != b {
		t.Fatalf("short term within one session: %+v", hits)
	}
	hits, _ = s.Search(ctx, "问题 parseconfig", SearchOptions{})
	if len(hits) != 1 || hits[0].MessageID != ids.AssistantMessageID {
		t.Fatalf("short CJK term with long term: %+v", hits)
	}
	for _, q := range []string{"toolonlyword", "secretthought", "nothing-like-this"} {
		if hits, _ := s.Search(ctx, q, SearchOptions{}); len(hits) != 0 {
			t.Errorf("%q matched non-text content: %+v", q, hits)
		}
	}
	// FTS syntax in user input is literal, never a query error.
	for _, q := range []string{`"unbalanced`, `a OR b NOT (`, `col:value*`} {
		if _, err := s.Search(ctx, q, SearchOptions{}); err != nil {
			t.Errorf("query %q: %v", q, err)
		}
	}
	for _, o := range []SearchOptions{{Limit: -1}, {Limit: 201}} {
		if _, err := s.Search(ctx, "x", o); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: %v", o, err)
		}
	}
	if _, err := s.Search(ctx, "   ", SearchOptions{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty query: %v", err)
	}
}

func TestSearchSeesStreamedTextAfterFlush(t *testing.T) {
	s := openTest(t, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{}).ID
	_, w, _ := s.BeginTurn(ctx, id, "hello", TurnOptions{})
	w.AppendText("first version ")
	w.Flush(ctx)
	w.AppendText("quokka appears later")
	if hits, _ := s.Search(ctx, "quokka", SearchOptions{}); len(hits) != 0 {
		t.Fatalf("unflushed text searchable: %+v", hits)
	}
	w.Finalize(ctx, StatusDone, nil)
	if hits, _ := s.Search(ctx, "quokka", SearchOptions{}); len(hits) != 1 {
		t.Fatalf("flushed text not searchable: %+v", hits)
	}
	// Updating a part re-indexes it rather than duplicating it.
	if hits, _ := s.Search(ctx, "first version", SearchOptions{}); len(hits) != 1 {
		t.Fatalf("%+v", hits)
	}
}

// TestSearchQueryLengthBound: a query over 1 KB is refused, clearly and
// without quoting it; one at the limit still runs.
func TestSearchQueryLengthBound(t *testing.T) {
	s := openTest(t, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	_, err := s.Search(ctx, strings.Repeat("abc ", 8<<20/4), SearchOptions{})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "at most 1024 are allowed") || len(err.Error()) > 200 {
		t.Fatalf("8 MB query: %.300v", err)
	}
	if _, err := s.Search(ctx, strings.Repeat("x", MaxSearchQuery), SearchOptions{}); err != nil {
		t.Fatalf("a query at the limit: %v", err)
	}
}
