package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// TestTrackReadsDecodeOnlyTheAppendedTail guards the read round's main
// saving: the pre-request compaction check reads the track before every
// model request, and after the first read only appended messages are
// decoded. Any other change still shows on the next read.
func TestTrackReadsDecodeOnlyTheAppendedTail(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{}).ID
	other := mustSession(t, s, NewSession{}).ID
	msg := func(c string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: c} }
	read := func(sid, want string) {
		t.Helper()
		got, err := s.LLMMessages(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(contents(got)) != want {
			t.Fatalf("track %s = %v, want %s", sid, contents(got), want)
		}
	}
	if _, err := s.AppendLLMMessages(ctx, id, "", msg("0")); err != nil {
		t.Fatal(err)
	}
	read(id, "[0]")
	want := "[0"
	for i := 1; i <= 100; i++ {
		if _, err := s.AppendLLMMessages(ctx, id, "", msg(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
		want += fmt.Sprintf(" %d", i)
		read(id, want+"]")
	}
	if n := s.FullTrackReads(); n != 1 {
		t.Fatalf("100 appended rounds decoded the whole track %d times, want 1 (the first read)", n)
	}

	// A caller changing what it got does not change the next read.
	got, _ := s.LLMMessages(ctx, id)
	got[0].Content = "changed"
	read(id, want+"]")

	// A replace (compaction) is seen at once.
	if err := s.ReplaceLLMMessages(ctx, id, 0, 100, []llm.Message{msg("S")}); err != nil {
		t.Fatal(err)
	}
	read(id, "[S 100]")
	if _, err := s.AppendLLMMessages(ctx, id, "", msg("101")); err != nil {
		t.Fatal(err)
	}
	read(id, "[S 100 101]")

	// A rewrite that bypasses the store's methods still shows: the row at
	// the cached last position no longer matches.
	if _, err := s.w.ExecContext(ctx, `UPDATE llm_messages SET message = ? WHERE session_id = ? AND position = 2`,
		string(mustJSON(msg("X"))), id); err != nil {
		t.Fatal(err)
	}
	read(id, "[S 100 X]")

	// So does a rewrite of an older row that keeps the row count and the
	// last row (another window's sidecar shortening an old tool result).
	if _, err := s.w.ExecContext(ctx, `UPDATE llm_messages SET message = ? WHERE session_id = ? AND position = 1`,
		string(mustJSON(msg("1"))), id); err != nil {
		t.Fatal(err)
	}
	read(id, "[S 1 X]")

	// Sessions are cached apart, and a deleted session's track is gone.
	if _, err := s.AppendLLMMessages(ctx, other, "", msg("o")); err != nil {
		t.Fatal(err)
	}
	read(other, "[o]")
	read(id, "[S 1 X]")
	if err := s.DeleteSession(ctx, other); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LLMMessages(ctx, other); err == nil {
		t.Fatal("a deleted session's track was still read")
	}
}
