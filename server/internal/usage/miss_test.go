package usage

import (
	"fmt"
	"testing"

	"github.com/govibe/govibe/server/internal/llm"
)

func missReq(system string, msgs ...string) llm.Request {
	r := llm.Request{Messages: []llm.Message{{Role: llm.RoleSystem, Content: system}}}
	for _, m := range msgs {
		r.Messages = append(r.Messages, llm.Message{Role: llm.RoleUser, Content: m})
	}
	return r
}

// The system prompt's change is named by its top-level section, and the
// meter forgets the least recently used session past maxTracked.
func TestMissSectionsAndBound(t *testing.T) {
	m := newMisses()
	u := llm.Usage{PromptTokens: 2000, CachedTokens: 1900, CacheReportedTokens: 2000}
	base := "intro\n# Environment\n- OS: linux\n# Language\nzh\n"
	m.judge("s", "", m.take("m", missReq(base, "a")), u)
	got := m.judge("s", "", m.take("m", missReq("intro\n# Environment\n- OS: darwin\n# Language\nzh\n", "a", "b")), u)
	if got.Cause != llm.MissSystem || got.Detail != "Environment" {
		t.Fatalf("miss %+v, want the Environment section", got)
	}
	// A compaction or title request does not count as the conversation's
	// previous request.
	if got := m.judge("s", llm.PurposeTitle, m.take("m", missReq("title prompt", "x")), u); got.Cause != "" {
		t.Fatalf("first title request names a miss: %+v", got)
	}
	for i := range maxTracked + 10 {
		m.judge(fmt.Sprint("other", i), "", m.take("m", missReq(base, "a")), u)
	}
	if len(m.fp) != maxTracked || m.order.Len() != maxTracked {
		t.Fatalf("%d fingerprints kept, want at most %d", len(m.fp), maxTracked)
	}
	if _, ok := m.fp["s\x00"]; ok {
		t.Fatal("the least recently used session was not forgotten")
	}
}
