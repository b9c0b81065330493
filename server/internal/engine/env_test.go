package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/compact"
	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/llm/scripted"
)

// prose is varied English-like text whose token count tracks its length
// the way real conversation does.
func prose(words int, seed uint64) string {
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

// snapshotReply is a valid compaction answer of about words words.
func snapshotReply(words int) string {
	return "<scratchpad>reviewing</scratchpad>\n<state_snapshot>\n<overall_goal>Keep the parser robust.</overall_goal>\n<key_knowledge>\n- " +
		prose(words, 7) + "\n</key_knowledge>\n<file_system_state>\n- READ: notes.txt\n</file_system_state>\n<recent_actions>\n- read files\n</recent_actions>\n" +
		"<current_plan>\n1. [DONE] read\n2. [IN PROGRESS] continue\n</current_plan>\n</state_snapshot>"
}

func isCompactionRequest(r *scripted.RecordedRequest) bool {
	return compact.IsInstruction(r.LastUserMessage())
}

// env is an engine on a scripted model with a temporary workspace.
type env struct {
	t     *testing.T
	e     *Engine
	model *scripted.Server
	dir   string
	state string

	mu     sync.Mutex
	events []Event
	unsub  func()
}

func newEnv(t *testing.T, settings config.Values) *env {
	t.Helper()
	model := scripted.Start(t)
	x := &env{t: t, model: model, dir: t.TempDir(), state: t.TempDir()}
	x.open(settings)
	return x
}

func (x *env) open(settings config.Values) {
	x.t.Helper()
	v := config.Values{"apiBaseUrl": x.model.URL(), "model": "scripted-model", "maxOutputTokens": float64(2000)}
	for k, val := range settings {
		v[k] = val
	}
	e, err := New(Options{Roots: []string{x.dir}, StateDir: x.state, Settings: v, APIKeys: map[string]string{"": "sk-test"},
		Headless: true, Approve: "all", HostInfo: HostInfo{OS: "linux", Shell: "bash"}})
	if err != nil {
		x.t.Fatal(err)
	}
	x.e = e
	x.unsub = e.Bus.Subscribe(func(ev Event) {
		x.mu.Lock()
		x.events = append(x.events, ev)
		x.mu.Unlock()
	})
	x.t.Cleanup(x.close)
}

func (x *env) close() {
	if x.e == nil {
		return
	}
	x.unsub()
	_ = x.e.Close()
	x.e = nil
}

// reopen restarts the engine on the same state directory.
func (x *env) reopen(settings config.Values) {
	x.close()
	x.mu.Lock()
	x.events = nil
	x.mu.Unlock()
	x.open(settings)
}

func (x *env) eventsOf(sid, kind string) []Event {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []Event
	for _, ev := range x.events {
		if ev.SessionID == sid && ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

func (x *env) await(what string, cond func() bool) {
	x.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			x.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// turn sends text and waits for the turn to finish.
func (x *env) turn(sid, text string) (string, string) {
	x.t.Helper()
	sid, tid, err := x.e.Send(context.Background(), SendParams{SessionID: sid, Text: text})
	if err != nil {
		x.t.Fatalf("send %q: %v", text, err)
	}
	if st := x.e.Wait(sid); st != "done" {
		x.t.Fatalf("turn %q ended %q", text, st)
	}
	// Subscribers get events asynchronously: wait for the turn's last one.
	x.await("turnFinished", func() bool {
		for _, ev := range x.eventsOf(sid, KindTurnFinished) {
			if ev.TurnID == tid {
				return true
			}
		}
		return false
	})
	return sid, tid
}

func (x *env) track(sid string) []llm.Message {
	x.t.Helper()
	m, err := x.e.Store.LLMMessages(context.Background(), sid)
	if err != nil {
		x.t.Fatal(err)
	}
	return m
}

func (x *env) writeFile(name, content string) {
	x.t.Helper()
	if err := os.WriteFile(filepath.Join(x.dir, name), []byte(content), 0o644); err != nil {
		x.t.Fatal(err)
	}
}

// replyTo answers a scenario request: a snapshot for compaction requests,
// a read_file call when the user asks to "read NAME", else prose.
func replyTo(r *scripted.RecordedRequest) scripted.Reply {
	if isCompactionRequest(r) {
		return scripted.Reply{Text: snapshotReply(60)}
	}
	kind, text := r.LatestInput()
	if kind == "user" {
		if i := strings.Index(text, "read "); i >= 0 {
			name := strings.Fields(text[i+5:])[0]
			return scripted.Reply{Text: "Reading it.", ToolCalls: []scripted.ToolCall{{Name: "read_file", Arguments: fmt.Sprintf(`{"filePath":%q}`, name)}}}
		}
	}
	return scripted.Reply{Text: prose(40, uint64(len(r.Messages)))}
}

func fillSession(x *env, turns int) string {
	sid := ""
	for i := 0; i < turns; i++ {
		sid, _ = x.turn(sid, prose(120, uint64(100+i)))
	}
	return sid
}
