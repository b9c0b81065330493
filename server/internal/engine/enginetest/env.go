// Package enginetest runs an engine on a scripted model for the tests that
// exercise it end to end: the engine's own (package engine_test) and those
// of the capability packages (compaction, the plan runner), and the
// compaction benchmark (bench/compactbench), which replays a scripted
// session through it. The product never imports it.
package enginetest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// Env is an engine on a scripted model with a temporary workspace.
type Env struct {
	T     *testing.T
	E     *engine.Engine
	Model *scripted.Server
	Dir   string
	State string

	mu     sync.Mutex
	events []engine.Event
	unsub  func()
}

// New starts the scripted model and opens an engine with settings.
func New(t *testing.T, settings config.Values) *Env {
	t.Helper()
	model := scripted.Start(t)
	x := &Env{T: t, Model: model, Dir: t.TempDir(), State: t.TempDir()}
	x.Open(settings)
	return x
}

// Open opens the engine on the environment's directories.
func (x *Env) Open(settings config.Values) {
	x.T.Helper()
	x.open(config.Values{"apiBaseUrl": x.Model.URL(), "model": "scripted-model", "maxOutputTokens": float64(2000)}, settings, false)
}

// open opens a headless engine approving everything, base overridden by
// settings.
func (x *Env) open(base, settings config.Values, trusted bool) {
	x.T.Helper()
	v := base
	for k, val := range settings {
		v[k] = val
	}
	e, err := engine.New(engine.Options{Roots: []string{x.Dir}, StateDir: x.State, Settings: v, APIKeys: map[string]string{"": "sk-test"},
		Headless: true, Approve: "all", Trusted: trusted, HostInfo: engine.HostInfo{OS: "linux", Shell: "bash"}})
	if err != nil {
		x.T.Fatal(err)
	}
	x.E = e
	x.unsub = e.Bus.Subscribe(func(ev engine.Event) {
		x.mu.Lock()
		x.events = append(x.events, ev)
		x.mu.Unlock()
	})
	x.T.Cleanup(x.Close)
}

// Close closes the engine (again is a no-op).
func (x *Env) Close() {
	if x.E == nil {
		return
	}
	x.unsub()
	_ = x.E.Close()
	x.E = nil
}

// Reopen restarts the engine on the same state directory.
func (x *Env) Reopen(settings config.Values) {
	x.Close()
	x.mu.Lock()
	x.events = nil
	x.mu.Unlock()
	x.Open(settings)
}

// EventsOf returns the session's events of kind received so far.
func (x *Env) EventsOf(sid string, kind kinds.Kind) []engine.Event {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []engine.Event
	for _, ev := range x.events {
		if ev.SessionID == sid && ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

// Await polls cond until it holds (30 s at most).
func (x *Env) Await(what string, cond func() bool) {
	x.T.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			x.T.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Turn sends text and waits for the turn to finish.
func (x *Env) Turn(sid, text string) (string, string) {
	x.T.Helper()
	sid, tid, err := x.E.Send(context.Background(), engine.SendParams{SessionID: sid, Text: text})
	if err != nil {
		x.T.Fatalf("send %q: %v", text, err)
	}
	if st := x.E.Wait(sid); st != "done" {
		x.T.Fatalf("turn %q ended %q", text, st)
	}
	// Subscribers get events asynchronously: wait for the turn's last one.
	x.Await("turnFinished", func() bool {
		for _, ev := range x.EventsOf(sid, kinds.TurnFinished) {
			if ev.TurnID == tid {
				return true
			}
		}
		return false
	})
	return sid, tid
}

// Track is the session's model track.
func (x *Env) Track(sid string) []llm.Message {
	x.T.Helper()
	m, err := x.E.Store.LLMMessages(context.Background(), sid)
	if err != nil {
		x.T.Fatal(err)
	}
	return m
}

// WriteFile writes a workspace file, creating its folders.
func (x *Env) WriteFile(name, content string) {
	x.T.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(x.Dir, name)), 0o755); err != nil {
		x.T.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(x.Dir, name), []byte(content), 0o644); err != nil {
		x.T.Fatal(err)
	}
}

// Prose is varied English-like text whose token count tracks its length
// the way real conversation does.
func Prose(words int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 99))
	vocab := strings.Fields("the parser returns an error when config file is missing so we retry with default value and log warning " +
		"handler module build test timeout cache request response client server session message token window summary plan step")
	var b strings.Builder
	for i := 0; i < words; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vocab[r.IntN(len(vocab))])
		if r.IntN(6) == 0 {
			fmt.Fprintf(&b, " %d", r.IntN(1000))
		}
	}
	return b.String()
}

// SnapshotReply is a valid compaction answer of about words words.
func SnapshotReply(words int) string {
	return "<scratchpad>reviewing</scratchpad>\n<state_snapshot>\n<overall_goal>Keep the parser robust.</overall_goal>\n<key_knowledge>\n- " +
		Prose(words, 7) + "\n</key_knowledge>\n<file_system_state>\n- READ: notes.txt\n</file_system_state>\n<recent_actions>\n- read files\n</recent_actions>\n" +
		"<current_plan>\n1. [DONE] read\n2. [IN PROGRESS] continue\n</current_plan>\n</state_snapshot>"
}

// IsCompactionRequest reports whether r is a compaction request.
func IsCompactionRequest(r *scripted.RecordedRequest) bool {
	return compact.IsInstruction(r.LastUserMessage())
}

// RawMessages returns a request's messages exactly as sent.
func RawMessages(t *testing.T, r scripted.RecordedRequest) []string {
	t.Helper()
	var body struct {
		Messages []json.RawMessage `json:"messages"`
		Tools    json.RawMessage   `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("request %d body: %v", r.Seq, err)
	}
	out := make([]string, len(body.Messages))
	for i, m := range body.Messages {
		out[i] = string(m)
	}
	return out
}

// RawTools returns a request's tool definitions exactly as sent.
func RawTools(t *testing.T, r scripted.RecordedRequest) string {
	t.Helper()
	var body struct {
		Tools json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	return string(body.Tools)
}

// IsPrefix reports whether prefix starts full.
func IsPrefix(prefix, full []string) bool {
	if len(prefix) > len(full) {
		return false
	}
	for i := range prefix {
		if prefix[i] != full[i] {
			return false
		}
	}
	return true
}

// ReplyTo answers a scenario request: a snapshot for compaction requests,
// a read_file call when the user asks to "read NAME", else prose.
func ReplyTo(r *scripted.RecordedRequest) scripted.Reply {
	if IsCompactionRequest(r) {
		return scripted.Reply{Text: SnapshotReply(60)}
	}
	kind, text := r.LatestInput()
	if kind == "user" {
		if i := strings.Index(text, "read "); i >= 0 {
			name := strings.Fields(text[i+5:])[0]
			return scripted.Reply{Text: "Reading it.", ToolCalls: []scripted.ToolCall{{Name: "read_file", Arguments: fmt.Sprintf(`{"filePath":%q}`, name)}}}
		}
	}
	return scripted.Reply{Text: Prose(40, uint64(len(r.Messages)))}
}

// FillSession runs turns prose turns in a new session.
func FillSession(x *Env, turns int) string {
	sid := ""
	for i := 0; i < turns; i++ {
		sid, _ = x.Turn(sid, Prose(120, uint64(100+i)))
	}
	return sid
}
