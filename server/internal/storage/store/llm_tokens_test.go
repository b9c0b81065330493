package store

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// Each track message is counted once; later calls count only new ones,
// and a compaction's rewrite is counted afresh.
func TestTrackTokensCountsEachMessageOnce(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	sess := mustSession(t, s, NewSession{})
	calls := 0
	count := func(m llm.Message) int { calls++; return len(m.Content) }
	if n, err := s.TrackTokens(ctx, sess.ID, count); err != nil || n != 0 {
		t.Fatalf("empty track: %d %v", n, err)
	}
	if _, err := s.AppendLLMMessages(ctx, sess.ID, "", llm.Message{Role: llm.RoleUser, Content: "12345"}, llm.Message{Role: llm.RoleAssistant, Content: "123"}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.TrackTokens(ctx, sess.ID, count); err != nil || n != 8 || calls != 2 {
		t.Fatalf("first count: %d %v (calls %d)", n, err, calls)
	}
	if n, _ := s.TrackTokens(ctx, sess.ID, count); n != 8 || calls != 2 {
		t.Fatalf("a second open recounted: %d (calls %d)", n, calls)
	}
	if _, err := s.AppendLLMMessages(ctx, sess.ID, "", llm.Message{Role: llm.RoleUser, Content: "1234567"}); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.TrackTokens(ctx, sess.ID, count); n != 15 || calls != 3 {
		t.Fatalf("after an append: %d (calls %d), want 15 with one more count", n, calls)
	}
	// A compaction replaces the first two with a summary.
	if err := s.ReplaceLLMMessages(ctx, sess.ID, 0, 2, []llm.Message{{Role: llm.RoleUser, Content: "ab"}}); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.TrackTokens(ctx, sess.ID, count); n != 9 {
		t.Fatalf("after a rewrite: %d, want 2+7", n)
	}
	if _, err := s.TrackTokens(ctx, "no-such-session", count); err != nil {
		t.Fatalf("an unknown session has an empty track, not an error: %v", err)
	}
}
