package usage

import (
	"container/list"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// fingerprint is what of one request decides the provider's prompt
// cache: the model it went to, the system prompt's sections, the tools
// and one hash per message. Two requests share a cached prefix exactly as
// far as these agree.
type fingerprint struct {
	model    string
	sections []section
	tools    []tool
	messages []uint64 // Messages[1:]; the system prompt is in sections
	// describe names each message for a cause ("tool result of read_file").
	describe []string
	prompt   int64 // the provider's prompt tokens, once answered
}

type section struct {
	name string
	hash uint64
}

type tool struct {
	name string
	hash uint64
}

// minCacheable is the smallest prompt a provider caches (OpenAI's 1,024
// tokens; DeepSeek's 64-token blocks are finer). Below it a miss with an
// identical prefix is expected, not an eviction.
const minCacheable = 1024

// maxTracked bounds how many (session, purpose) keys the meter keeps;
// the least recently used is forgotten, and its next request is
// compared with nothing.
const maxTracked = 64

// recentPerKey is how many of a key's last requests a new one is matched
// against. A plan interleaves the executor's, the evaluator's and the
// main agent's requests, each with its own tools and system prompt; the
// provider serves whichever prefix matches, so the cause is named against
// the request sharing the longest prefix, not merely the last one.
const recentPerKey = 4

// misses remembers the last requests of each session and purpose, and
// whether a compaction ran since.
type misses struct {
	mu        sync.Mutex
	seed      maphash.Seed
	order     *list.List // of string keys, most recent first
	last      map[string]*list.Element
	fp        map[string][]*fingerprint // most recent last, at most recentPerKey
	compacted map[string]bool           // by session
}

func newMisses() *misses {
	return &misses{seed: maphash.MakeSeed(), order: list.New(), last: map[string]*list.Element{},
		fp: map[string][]*fingerprint{}, compacted: map[string]bool{}}
}

func (m *misses) hash(parts ...string) uint64 {
	var h maphash.Hash
	h.SetSeed(m.seed)
	for _, p := range parts {
		h.WriteString(p)
		h.WriteByte(0)
	}
	return h.Sum64()
}

// take fingerprints req as sent to model.
func (m *misses) take(model string, req llm.Request) *fingerprint {
	fp := &fingerprint{model: model}
	msgs := req.Messages
	if len(msgs) > 0 && msgs[0].Role == llm.RoleSystem {
		fp.sections = m.sections(msgs[0].Content)
		msgs = msgs[1:]
	}
	for _, t := range req.Tools {
		fp.tools = append(fp.tools, tool{name: t.Name, hash: m.hash(t.Name, t.Description, string(t.Parameters))})
	}
	callName := map[string]string{}
	for _, msg := range msgs {
		parts := []string{string(msg.Role), msg.Content, msg.ReasoningContent, msg.ToolCallID, msg.Name}
		for _, c := range msg.ToolCalls {
			parts = append(parts, c.ID, c.Name, c.Arguments, c.Extra)
			callName[c.ID] = c.Name
		}
		fp.messages = append(fp.messages, m.hash(parts...))
		d := string(msg.Role) + " message"
		if msg.Role == llm.RoleTool {
			d = fmt.Sprintf("tool result of %s (%s)", firstNonEmpty(callName[msg.ToolCallID], msg.Name, "a tool"), msg.ToolCallID)
		}
		fp.describe = append(fp.describe, d)
	}
	return fp
}

// sections splits a system prompt at its top-level headings ("# Name");
// text before the first is "preamble".
func (m *misses) sections(system string) []section {
	var out []section
	name, start := "preamble", 0
	flush := func(end int) {
		if end > start || name != "preamble" {
			out = append(out, section{name: name, hash: m.hash(system[start:end])})
		}
	}
	for i := 0; i < len(system); {
		j := strings.IndexByte(system[i:], '\n')
		line := system[i:]
		if j >= 0 {
			line = system[i : i+j]
		}
		if strings.HasPrefix(line, "# ") {
			flush(i)
			name, start = strings.TrimSpace(line[2:]), i
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	flush(len(system))
	return out
}

// compaction notes that the session's history was summarised: its next
// request's changed prefix is the compaction's doing.
func (m *misses) compaction(sid string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.compacted[sid] = true
}

// judge compares fp, answered with u, with the recent request of the
// same session and purpose that shares the longest prefix with it,
// remembers fp, and names why the cache missed (zero when it did not, or
// when nothing can be said).
func (m *misses) judge(sid, purpose string, fp *fingerprint, u llm.Usage) llm.CacheMiss {
	fp.prompt = u.PromptTokens
	key := sid + "\x00" + purpose
	m.mu.Lock()
	prev := closest(m.fp[key], fp)
	compacted := purpose == "" && m.compacted[sid]
	if purpose == "" {
		delete(m.compacted, sid)
	}
	recent := append(m.fp[key], fp)
	if len(recent) > recentPerKey {
		recent = append([]*fingerprint(nil), recent[len(recent)-recentPerKey:]...)
	}
	m.fp[key] = recent
	if e, ok := m.last[key]; ok {
		m.order.MoveToFront(e)
	} else {
		m.last[key] = m.order.PushFront(key)
		for m.order.Len() > maxTracked {
			old := m.order.Remove(m.order.Back()).(string)
			delete(m.last, old)
			delete(m.fp, old)
		}
	}
	m.mu.Unlock()
	if prev == nil {
		return llm.CacheMiss{}
	}
	return compare(prev, fp, u, compacted)
}

// closest is the candidate sharing the longest prefix with cur (the one
// whose cache serves cur best); among equals, one that is wholly a prefix
// of cur, then the most recent. nil when there is none.
func closest(candidates []*fingerprint, cur *fingerprint) *fingerprint {
	var best *fingerprint
	bestLen, bestWhole := -1, false
	for _, c := range candidates {
		n, whole := sharedPrefix(c, cur)
		if n > bestLen || (n == bestLen && (whole || !bestWhole)) {
			best, bestLen, bestWhole = c, n, whole
		}
	}
	return best
}

// sharedPrefix counts the parts of the prefix, in the order providers
// cache it (model, tools, system prompt sections, messages), that prev
// and cur share before the first difference, and whether all of prev is
// a prefix of cur.
func sharedPrefix(prev, cur *fingerprint) (n int, whole bool) {
	if prev.model != cur.model {
		return 0, false
	}
	if !slices.Equal(prev.tools, cur.tools) {
		return 1, false
	}
	n = 2
	for i, s := range prev.sections {
		if i >= len(cur.sections) || cur.sections[i] != s {
			return n, false
		}
		n++
	}
	if len(cur.sections) != len(prev.sections) {
		return n, false
	}
	for i, h := range prev.messages {
		if i >= len(cur.messages) || cur.messages[i] != h {
			return n, false
		}
		n++
	}
	return n, true
}

// compare names the first thing that broke the shared prefix, in prefix
// order as providers cache it: the model, the tools (serialised before
// the messages), the system prompt, then the messages. A tool change
// also rewrites the system prompt's guidance for those tools; the tools
// are the cause.
func compare(prev, cur *fingerprint, u llm.Usage, compacted bool) llm.CacheMiss {
	if prev.model != cur.model {
		return llm.CacheMiss{Cause: llm.MissModel, Detail: prev.model + " → " + cur.model}
	}
	if d := toolChange(prev.tools, cur.tools); d != "" {
		return llm.CacheMiss{Cause: llm.MissTools, Detail: d}
	}
	if d := sectionChange(prev.sections, cur.sections); d != "" {
		if compacted {
			return llm.CacheMiss{Cause: llm.MissCompaction, Detail: "system prompt section " + d}
		}
		return llm.CacheMiss{Cause: llm.MissSystem, Detail: d}
	}
	for i, h := range prev.messages {
		if i >= len(cur.messages) || cur.messages[i] != h {
			if compacted {
				return llm.CacheMiss{Cause: llm.MissCompaction, Message: i + 1}
			}
			d := "messages dropped"
			if i < len(cur.messages) {
				d = cur.describe[i]
			}
			return llm.CacheMiss{Cause: llm.MissRewritten, Detail: d, Message: i + 1}
		}
	}
	// The whole previous request is this one's prefix: a low hit is the
	// provider's doing, when it reports hits at all.
	if _, known := u.CacheShare(); known && prev.prompt >= minCacheable && u.CachedTokens < prev.prompt/2 {
		return llm.CacheMiss{Cause: llm.MissEvicted, Detail: fmt.Sprintf("%d of the %d-token shared prefix cached", u.CachedTokens, prev.prompt)}
	}
	return llm.CacheMiss{}
}

// sectionChange names the first system-prompt section added, removed or
// changed ("" when none was).
func sectionChange(prev, cur []section) string {
	for i, s := range prev {
		if i >= len(cur) {
			return s.name + " (removed)"
		}
		if cur[i].name != s.name {
			if !slices.ContainsFunc(prev, func(p section) bool { return p.name == cur[i].name }) {
				return cur[i].name + " (added)"
			}
			return s.name + " (removed)"
		}
		if cur[i].hash != s.hash {
			return s.name
		}
	}
	if len(cur) > len(prev) {
		return cur[len(prev)].name + " (added)"
	}
	return ""
}

// toolChange lists the tools added, removed or changed ("" when the tool
// list is identical, order included).
func toolChange(prev, cur []tool) string {
	if slices.Equal(prev, cur) {
		return ""
	}
	was := map[string]uint64{}
	for _, t := range prev {
		was[t.name] = t.hash
	}
	is := map[string]bool{}
	var parts []string
	for _, t := range cur {
		is[t.name] = true
		h, ok := was[t.name]
		switch {
		case !ok:
			parts = append(parts, "+"+t.name)
		case h != t.hash:
			parts = append(parts, "~"+t.name)
		}
	}
	for _, t := range prev {
		if !is[t.name] {
			parts = append(parts, "-"+t.name)
		}
	}
	if len(parts) == 0 {
		return "order changed"
	}
	return strings.Join(parts, " ")
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
