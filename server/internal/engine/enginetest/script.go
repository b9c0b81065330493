package enginetest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// Script answers the main agent and sub-agents separately: a request
// belongs to a sub-agent when its system prompt contains that agent's
// marker (a key of Sub). Offered and Reqs record, per agent, the tools
// of its last request and every request. Safe for concurrent use by the
// model server; tests read Offered and Reqs once the turn is over.
type Script struct {
	mu      sync.Mutex
	Main    []scripted.Reply
	Sub     map[string][]scripted.Reply // by a marker in the system prompt
	Offered map[string][]string
	Reqs    map[string][]scripted.RecordedRequest
}

// Handle is the scripted model's handler.
func (s *Script) Handle(r *scripted.RecordedRequest) scripted.Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	who := "main"
	for marker := range s.Sub {
		if strings.Contains(r.Messages[0].Content, marker) {
			who = marker
		}
	}
	var names []string
	for _, t := range r.Tools {
		names = append(names, t.Name)
	}
	s.Offered[who] = names
	s.Reqs[who] = append(s.Reqs[who], *r)
	list := s.Main
	if who != "main" {
		list = s.Sub[who]
	}
	step := len(s.Reqs[who]) - 1
	if step < len(list) {
		return list[step]
	}
	return scripted.Reply{Text: "unscripted " + who}
}

// NewScripted opens an engine whose model answers from s, trusted or not,
// with HOME in a temporary folder (no user agents or skills leak in).
// Unlike New, it sets no maxOutputTokens.
func NewScripted(t *testing.T, s *Script, settings config.Values, trusted bool) *Env {
	t.Helper()
	s.Offered, s.Reqs = map[string][]string{}, map[string][]scripted.RecordedRequest{}
	model := scripted.Start(t)
	model.SetHandler(s.Handle)
	x := &Env{T: t, Model: model, Dir: t.TempDir(), State: t.TempDir()}
	t.Setenv("HOME", t.TempDir())
	x.OpenTrusted(settings, trusted)
	return x
}

// OpenTrusted opens the engine on the environment's directories with the
// given workspace trust and no maxOutputTokens.
func (x *Env) OpenTrusted(settings config.Values, trusted bool) {
	x.T.Helper()
	v := config.Values{"apiBaseUrl": x.Model.URL(), "model": "scripted-model"}
	x.open(v, settings, trusted)
}

// ToolResults maps tool-call ids to their results in the stored UI track,
// each "ok: output" or "error: output".
func (x *Env) ToolResults(sid string) map[string]string {
	x.T.Helper()
	page, err := x.E.Store.LoadMessages(context.Background(), sid, 0, 10000)
	if err != nil {
		x.T.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range page.Messages {
		for _, p := range m.Parts {
			if p.ToolResult != nil {
				out[p.ToolResult.ToolCallID] = okOrError(p.ToolResult.OK) + ": " + p.ToolResult.Output
			}
		}
	}
	return out
}

// Published maps tool-call ids to their results as published on the bus,
// like ToolResults (agents that persist in hidden child sessions appear
// here, under the session they work for).
func (x *Env) Published(sid string) map[string]string {
	out := map[string]string{}
	for _, ev := range x.EventsOf(sid, kinds.ToolResult) {
		out[ev.Tool.CallID] = okOrError(ev.Tool.OK) + ": " + ev.Tool.Output
	}
	return out
}

func okOrError(ok bool) string {
	if ok {
		return "ok"
	}
	return "error"
}

// Call is a tool call with JSON-encoded args.
func Call(id, name string, args any) scripted.ToolCall {
	b, _ := json.Marshal(args)
	return scripted.ToolCall{ID: id, Name: name, Arguments: string(b)}
}

// Calls is a reply making the calls.
func Calls(cs ...scripted.ToolCall) scripted.Reply { return scripted.Reply{ToolCalls: cs} }

// Text is a plain text reply.
func Text(s string) scripted.Reply { return scripted.Reply{Text: s} }

// Has reports whether xs holds s.
func Has(xs []string, s string) bool { return slices.Contains(xs, s) }
