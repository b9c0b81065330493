package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestLoadMessagesPagesNewestFirst(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{}).ID
	for i := 1; i <= 25; i++ {
		if _, err := s.AppendMessage(ctx, id, NewMessage{Role: RoleEvent, Parts: []Part{{Kind: PartText, Text: fmt.Sprint("m", i)}}}); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	before := int64(0)
	for {
		page, err := s.LoadMessages(ctx, id, before, 10)
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 25 {
			t.Fatalf("total %d", page.Total)
		}
		var texts []string
		for i, m := range page.Messages {
			if i > 0 && m.Seq <= page.Messages[i-1].Seq {
				t.Fatal("page not ascending")
			}
			texts = append(texts, m.Text())
		}
		seen = append(texts, seen...)
		if !page.HasMore {
			break
		}
		before = page.NextBefore
	}
	if len(seen) != 25 || seen[0] != "m1" || seen[24] != "m25" {
		t.Fatalf("%v", seen)
	}
	first, _ := s.LoadMessages(ctx, id, 0, 10)
	if first.Messages[0].Text() != "m16" || first.NextBefore != first.Messages[0].Seq {
		t.Fatalf("newest page starts at %q", first.Messages[0].Text())
	}
	for _, c := range []struct {
		sid    string
		before int64
		limit  int
		want   error
	}{{id, 0, 0, ErrInvalid}, {id, -1, 10, ErrInvalid}, {id, 0, 10001, ErrInvalid}, {"nope", 0, 10, ErrNotFound}} {
		if _, err := s.LoadMessages(ctx, c.sid, c.before, c.limit); !errors.Is(err, c.want) {
			t.Errorf("LoadMessages(%q,%d,%d) = %v", c.sid, c.before, c.limit, err)
		}
	}
	if _, err := s.GetMessage(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("GetMessage unknown: %v", err)
	}
}

func TestAppendMessageRejectsBadInput(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{}).ID
	bad := []NewMessage{
		{Role: "robot"},
		{Role: RoleUser, Status: "finished"},
		{Role: RoleUser, Parts: []Part{{Kind: "image"}}},
		{Role: RoleUser, Parts: []Part{{Kind: PartText, ToolCall: &ToolCall{ID: "x", Name: "y", Status: ToolDone}}}},
		{Role: RoleUser, Parts: []Part{{Kind: PartToolCall}}},
		{Role: RoleUser, Parts: []Part{{Kind: PartToolResult, ToolResult: &ToolResult{}}}},
		{Role: RoleUser, Parts: []Part{{Kind: PartNotice, Notice: &Notice{Level: "meh"}}}},
	}
	for i, nm := range bad {
		if _, err := s.AppendMessage(ctx, id, nm); !errors.Is(err, ErrInvalid) {
			t.Errorf("case %d: %v", i, err)
		}
	}
	if _, err := s.AppendMessage(ctx, "nope", NewMessage{Role: RoleUser}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown session: %v", err)
	}
	if n := countRows(t, s, "messages", "1"); n != 0 {
		t.Fatalf("%d messages written", n)
	}
}
