package usage

import (
	"fmt"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
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

func missReqTools(system string, tools []string, msgs ...string) llm.Request {
	r := missReq(system, msgs...)
	for _, t := range tools {
		r.Tools = append(r.Tools, llm.ToolDef{Name: t})
	}
	return r
}

// A plan interleaves requests with other tools and system prompts (the
// executor's, the evaluator's) between the main agent's: a request is
// judged against the recent one whose prefix it extends, not the last
// one sent, so the same turn names the same cause however the roles
// interleave. The cause is named against the request sharing the longest
// prefix.
func TestMissJudgedAgainstTheClosestRecentRequest(t *testing.T) {
	m := newMisses()
	u := llm.Usage{PromptTokens: 2000}
	main, eval := []string{"read_file", "edit"}, []string{"read_file", "complete_todo_item"}
	m.judge("s", "", m.take("m", missReqTools("main", main, "q")), u)
	m.judge("s", "", m.take("m", missReqTools("evaluator", eval, "q", "check")), u)
	if got := m.judge("s", "", m.take("m", missReqTools("main", main, "q", "answer")), u); got.Cause != "" {
		t.Fatalf("the main agent's request extending its own names a miss: %+v", got)
	}
	// Nothing is a prefix: the cause is named against the request sharing
	// the most (the main agent's tools and system prompt), a rewritten
	// message, not the evaluator's tool list.
	got := m.judge("s", "", m.take("m", missReqTools("main", main, "q2", "other")), u)
	if got.Cause != llm.MissRewritten || got.Message != 1 {
		t.Fatalf("miss %+v, want message 1 rewritten", got)
	}
	// Only recentPerKey requests are matched against.
	for i := range recentPerKey {
		m.judge("s", "", m.take("m", missReqTools(fmt.Sprint("evaluator ", i), eval, "q")), u)
	}
	if got := m.judge("s", "", m.take("m", missReqTools("main", main, "q", "other", "more")), u); got.Cause != llm.MissTools {
		t.Fatalf("miss %+v against forgotten requests, want %s", got, llm.MissTools)
	}
	if n := len(m.fp["s\x00"]); n != recentPerKey {
		t.Fatalf("%d requests kept for the key, want %d", n, recentPerKey)
	}
}
