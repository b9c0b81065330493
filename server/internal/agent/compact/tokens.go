// Package compact holds GoVibe's context-compaction domain logic: an
// offline token estimate, the choice of what to summarise and what to keep,
// mechanical truncation of old tool outputs, the compaction instruction and
// the validation of its result. It knows nothing about sessions or storage.
package compact

import (
	"encoding/json"
	"hash/maphash"
	"sync"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// messageOverhead approximates the per-message framing tokens (role,
// separators) that chat templates add around each message.
const messageOverhead = 4

// maxCached bounds the count cache; past it the cache starts afresh, which
// costs one re-count per live message, never a wrong answer.
const maxCached = 1 << 16

// Estimator counts cl100k_base tokens locally (bpe.go): tiktoken's exact
// count on ordinary text, at a bounded cost per byte on any text. It is
// safe for concurrent use: the vocabulary is read-only and the cache is
// guarded by mu. Messages in a session are immutable, so counts are cached
// by content hash and a long session is tokenised once, not once per
// request.
type Estimator struct {
	seed  maphash.Seed
	mu    sync.Mutex
	cache map[uint64]int
}

// NewEstimator returns an estimator with an empty cache.
func NewEstimator() *Estimator {
	return &Estimator{seed: maphash.MakeSeed(), cache: map[uint64]int{}}
}

var defaultEstimator = NewEstimator()

// Default is the process-wide estimator.
func Default() *Estimator { return defaultEstimator }

// Text counts the tokens of s.
func (e *Estimator) Text(s string) int {
	if s == "" {
		return 0
	}
	h := maphash.String(e.seed, s)
	e.mu.Lock()
	n, ok := e.cache[h]
	e.mu.Unlock()
	if ok {
		return n
	}
	if v := cl100k(); v != nil {
		n, _ = countText(v, s)
	} else {
		// Only reachable if the embedded BPE file failed to parse.
		n = (len(s) + 3) / 4
	}
	e.mu.Lock()
	if len(e.cache) >= maxCached {
		e.cache = map[uint64]int{}
	}
	e.cache[h] = n
	e.mu.Unlock()
	return n
}

// Message counts one message as sent: content, reasoning, tool calls and
// framing.
func (e *Estimator) Message(m llm.Message) int {
	n := messageOverhead + e.Text(m.Content) + e.Text(m.ReasoningContent)
	for _, c := range m.ToolCalls {
		n += messageOverhead + e.Text(c.Name) + e.Text(c.Arguments)
	}
	return n
}

// Messages counts a message list.
func (e *Estimator) Messages(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += e.Message(m)
	}
	return n
}

// Tools counts tool definitions as their JSON.
func (e *Estimator) Tools(defs []llm.ToolDef) int {
	if len(defs) == 0 {
		return 0
	}
	b, err := json.Marshal(defs)
	if err != nil {
		return 0
	}
	return e.Text(string(b))
}

// Request counts a whole request: system prompt, tools and messages.
func (e *Estimator) Request(system string, defs []llm.ToolDef, msgs []llm.Message) int {
	return e.Text(system) + messageOverhead + e.Tools(defs) + e.Messages(msgs)
}
