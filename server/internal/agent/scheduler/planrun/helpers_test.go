package planrun_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// agentScript answers the scripted model per agent: the key of a request
// is its agent ("free", "executor:2", "evaluator:1", "final") and the
// attempt ("executor:2#2"); the reply is the agent's next scripted step.
// Safe for concurrent use.
type agentScript struct {
	mu      sync.Mutex
	replies map[string][]scripted.Reply
	seen    []string // request keys in order
	offered map[string][]string
	unknown []string
}

var agentPromptRE = regexp.MustCompile(`^\[((executor|evaluator):\d+)\] `)

func newScript() *agentScript {
	return &agentScript{replies: map[string][]scripted.Reply{}, offered: map[string][]string{}}
}

func (s *agentScript) on(key string, rs ...scripted.Reply) *agentScript {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies[key] = append(s.replies[key], rs...)
	return s
}

// keyOf finds the agent of a request: the last agent prompt (or final
// prompt) in the messages, and counts earlier attempts of that agent from
// the summaries that replaced them.
func keyOf(r *scripted.RecordedRequest) (key string, step int) {
	start, tag := -1, "free"
	for i, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		if g := agentPromptRE.FindStringSubmatch(m.Content); g != nil {
			start, tag = i, g[1]
		} else if strings.HasPrefix(m.Content, "[scheduler]") {
			start, tag = i, "final"
		} else if start >= 0 && !strings.HasPrefix(m.Content, "<context>") {
			// a summary: the agent before it finished
			start, tag = -1, "free"
		}
	}
	attempt := 1
	if strings.HasPrefix(tag, "executor:") || strings.HasPrefix(tag, "evaluator:") {
		verb := map[bool]string{true: " finished", false: " evaluated"}[strings.HasPrefix(tag, "executor:")]
		for _, m := range r.Messages {
			if m.Role == "user" && strings.HasPrefix(m.Content, "["+tag+verb) {
				attempt++
			}
		}
	}
	for _, m := range r.Messages[max(start, 0):] {
		if m.Role == "assistant" {
			step++
		}
	}
	if start < 0 {
		step = 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				step++
			}
		}
	}
	return fmt.Sprintf("%s#%d", tag, attempt), step
}

func (s *agentScript) handle(r *scripted.RecordedRequest) scripted.Reply {
	key, step := keyOf(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, key)
	var names []string
	for _, t := range r.Tools {
		names = append(names, t.Name)
		names = append(names, listedBehind(t)...)
	}
	s.offered[key] = names
	rs := s.replies[key]
	if step < len(rs) {
		return rs[step]
	}
	s.unknown = append(s.unknown, fmt.Sprintf("%s step %d", key, step))
	return scripted.Reply{Text: "no script for " + key}
}

// reset replaces the replies scripted for key.
func (s *agentScript) reset(key string, rs ...scripted.Reply) *agentScript {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies[key] = rs
	return s
}

func (s *agentScript) keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// listedBehind are the tools the deferred tools' entry lists, one a line
// ("- name(args): what it does"): offered too, by their names.
func listedBehind(t scripted.Tool) []string {
	if t.Name != tools.DeferredEntryName {
		return nil
	}
	var out []string
	for _, l := range strings.Split(t.Description, "\n") {
		if name, _, ok := strings.Cut(strings.TrimPrefix(l, "- "), "("); ok && strings.HasPrefix(l, "- ") {
			out = append(out, name)
		}
	}
	return out
}

func (s *agentScript) tools(key string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.offered[key]...)
}

func (s *agentScript) check(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.unknown) > 0 {
		t.Fatalf("requests without a scripted reply: %v (seen %v)", s.unknown, s.seen)
	}
}

// The scripted replies, as the engine's tests write them.
var (
	call  = enginetest.Call
	calls = enginetest.Calls
	text  = enginetest.Text
	has   = enginetest.Has
)

func newSchedEnv(t *testing.T, s *agentScript, settings config.Values) *enginetest.Env {
	t.Helper()
	x := enginetest.New(t, settings)
	x.Model.SetHandler(s.handle)
	return x
}

func planOf(x *enginetest.Env, sid string) *scheduler.Plan {
	x.T.Helper()
	p, err := x.E.Plans.Read(context.Background(), sid)
	if err != nil {
		x.T.Fatal(err)
	}
	return p
}

func statuses(p *scheduler.Plan) string {
	var out []string
	for _, it := range p.Items {
		out = append(out, fmt.Sprintf("%s=%s/%d", it.Title, it.Status, it.Attempts))
	}
	return strings.Join(out, " ")
}

// toolResults maps tool-call ids to their results in the stored UI track.
func toolResults(x *enginetest.Env, sid string) map[string]string { return x.ToolResults(sid) }

func noViolations(x *enginetest.Env) {
	x.T.Helper()
	if v := x.Model.Violations(); len(v) > 0 {
		x.T.Fatalf("requests violated provider rules: %v", v)
	}
}

func waitTodo(x *enginetest.Env, sid string, cond func(p *scheduler.Plan) bool) {
	x.T.Helper()
	x.Await("todo state", func() bool {
		p, _ := x.E.Plans.Read(context.Background(), sid)
		return p != nil && cond(p)
	})
}
