package compaction

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// prefixCounter is a Host that never compacts and counts Prefix calls;
// the methods it leaves out are not reached by a request under the
// threshold.
type prefixCounter struct {
	Host
	prefixes int
}

func (h *prefixCounter) Policy(context.Context, string) compact.Policy {
	return compact.Policy{Window: 1 << 20, Threshold: 0.8}.Normalized()
}

func (h *prefixCounter) Prefix(context.Context, string) (string, []llm.ToolDef) {
	h.prefixes++
	return "system", []llm.ToolDef{{Name: "read_file", Parameters: []byte(`{"type":"object"}`)}}
}

// A run's requests under the threshold build the estimate's prefix once
// and decode the stored track in full once, not once per request: both
// were most of a read round's pre-request CPU.
func TestPrepareReadsOncePerRun(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(filepath.Join(t.TempDir(), "s.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	sess, err := s.CreateSession(ctx, store.NewSession{})
	if err != nil {
		t.Fatal(err)
	}
	h := &prefixCounter{}
	prepare := New(h, s, nil).Prepare(sess.ID, "turn", true)
	msgs := []llm.Message{{Role: llm.RoleUser, Content: "read a file"}}
	for round := 0; round < 20; round++ {
		if _, err := s.AppendLLMMessages(ctx, sess.ID, "", msgs[len(msgs)-1]); err != nil {
			t.Fatal(err)
		}
		sent, err := prepare(ctx, msgs)
		if err != nil {
			t.Fatal(err)
		}
		if len(sent) != len(msgs) || !SameMessage(sent[len(sent)-1], msgs[len(msgs)-1]) {
			t.Fatalf("round %d sent %d messages, want the %d stored", round, len(sent), len(msgs))
		}
		call := llm.ToolCall{ID: "c" + string(rune('a'+round)), Name: "read_file", Arguments: `{}`}
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}})
		if _, err := s.AppendLLMMessages(ctx, sess.ID, "", msgs[len(msgs)-1]); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Content: "text"})
	}
	if h.prefixes != 1 {
		t.Errorf("20 requests built the prefix %d times, want 1", h.prefixes)
	}
	if n := s.FullTrackReads(); n != 1 {
		t.Errorf("20 requests decoded the whole track %d times, want 1", n)
	}
}
