package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol/eventdata"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// rv is an engine on a scripted model whose handler routes each request
// by its system prompt: reviewers get their own scripts, the main agent
// its own, so a test controls both sides of every review loop.
type rv struct {
	t        *testing.T
	e        *Engine
	model    *scripted.Server
	dir      string
	confirms chan approval.Confirm

	mu        sync.Mutex
	main      []scripted.Reply
	reviewers map[review.Kind][]scripted.Reply
	seen      map[string][]scripted.RecordedRequest
	events    []Event
}

const mainKind = "main"

func newRV(t *testing.T, settings config.Values, headless bool, approve string) *rv {
	t.Helper()
	x := &rv{t: t, model: scripted.Start(t), dir: t.TempDir(), confirms: make(chan approval.Confirm, 64),
		reviewers: map[review.Kind][]scripted.Reply{}, seen: map[string][]scripted.RecordedRequest{}}
	x.model.SetHandler(x.route)
	v := config.Values{"apiBaseUrl": x.model.URL(), "model": "main-model", "maxOutputTokens": float64(2000), "snapshots.enabled": false}
	for k, val := range settings {
		v[k] = val
	}
	e, err := New(Options{Roots: []string{x.dir}, StateDir: t.TempDir(), Settings: v, APIKeys: map[string]string{"": "sk-test"},
		Headless: headless, Approve: approve, HostInfo: HostInfo{OS: "linux", Shell: "bash"},
		OnConfirm: func(c approval.Confirm) { x.confirms <- c }})
	if err != nil {
		t.Fatal(err)
	}
	x.e = e
	unsub := e.Bus.Subscribe(func(ev Event) {
		x.mu.Lock()
		x.events = append(x.events, ev)
		x.mu.Unlock()
	})
	t.Cleanup(func() { unsub(); e.Close() })
	return x
}

func kindOf(r *scripted.RecordedRequest) string {
	if len(r.Messages) > 0 && r.Messages[0].Role == "system" {
		for _, k := range []review.Kind{review.KindPlan, review.KindEdit, review.KindShell, review.KindShellEditor} {
			if r.Messages[0].Content == review.SystemPrompt(k) {
				return string(k)
			}
		}
	}
	return mainKind
}

func (x *rv) route(r *scripted.RecordedRequest) scripted.Reply {
	k := kindOf(r)
	x.mu.Lock()
	defer x.mu.Unlock()
	n := len(x.seen[k])
	x.seen[k] = append(x.seen[k], *r)
	var script []scripted.Reply
	if k == mainKind {
		script = x.main
	} else {
		script = x.reviewers[review.Kind(k)]
	}
	switch {
	case n < len(script):
		return script[n]
	case k == mainKind:
		return scripted.Reply{Text: "done"}
	case len(script) > 0:
		return script[len(script)-1]
	}
	return scripted.Reply{Text: `{"approved": true, "problems": []}`}
}

func (x *rv) script(kind review.Kind, replies ...scripted.Reply) {
	x.mu.Lock()
	x.reviewers[kind] = replies
	x.mu.Unlock()
}

func (x *rv) mainScript(replies ...scripted.Reply) {
	x.mu.Lock()
	x.main = replies
	x.mu.Unlock()
}

func (x *rv) requests(kind string) []scripted.RecordedRequest {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]scripted.RecordedRequest(nil), x.seen[kind]...)
}

// send starts a turn; finish waits for it.
func (x *rv) send(text string) string {
	x.t.Helper()
	sid, _, err := x.e.Send(context.Background(), SendParams{Text: text})
	if err != nil {
		x.t.Fatal(err)
	}
	return sid
}

func (x *rv) finish(sid string) {
	x.t.Helper()
	done := make(chan struct{})
	go func() { x.e.Wait(sid); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		x.t.Fatal("the turn did not finish")
	}
}

func (x *rv) confirm() approval.Confirm {
	x.t.Helper()
	select {
	case c := <-x.confirms:
		return c
	case <-time.After(30 * time.Second):
		x.t.Fatal("no confirmation was asked")
	}
	return approval.Confirm{}
}

func (x *rv) noConfirm() {
	x.t.Helper()
	select {
	case c := <-x.confirms:
		x.t.Fatalf("the user was asked: %+v", c)
	default:
	}
}

// toolResults are the tool messages the main agent received, in order.
func (x *rv) toolResults() []string {
	var out []string
	reqs := x.requests(mainKind)
	if len(reqs) == 0 {
		return nil
	}
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}

func (x *rv) reviewCards(sid string) []eventdata.ReviewCard {
	// Events reach the subscriber asynchronously: wait until it has seen
	// everything published for the session so far.
	want := x.e.Bus.LastSeq(sid)
	deadline := time.Now().Add(5 * time.Second)
	for {
		x.mu.Lock()
		var seen int64
		for _, ev := range x.events {
			if ev.SessionID == sid && ev.Seq > seen {
				seen = ev.Seq
			}
		}
		x.mu.Unlock()
		if seen >= want || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []eventdata.ReviewCard
	for _, ev := range x.events {
		if ev.SessionID == sid && ev.Kind == kinds.Review {
			out = append(out, ev.Payload.(eventdata.ReviewCard))
		}
	}
	return out
}

func (x *rv) write(name, content string) {
	x.t.Helper()
	p := filepath.Join(x.dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		x.t.Fatal(err)
	}
}

func (x *rv) read(name string) string {
	b, _ := os.ReadFile(filepath.Join(x.dir, name))
	return string(b)
}

// reviewerSessions lists the hidden reviewer children of a session.
func (x *rv) reviewerSessions(sid string) []store.Session {
	x.t.Helper()
	page, err := x.e.Store.ListSessions(context.Background(), store.ListOptions{IncludeHidden: true, ParentID: sid, Limit: 100})
	if err != nil {
		x.t.Fatal(err)
	}
	var out []store.Session
	for _, s := range page.Sessions {
		if s.Kind == store.KindReviewer {
			out = append(out, s)
		}
	}
	return out
}

func tc(id, name, args string) scripted.Reply {
	return scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: id, Name: name, Arguments: args}}}
}

func verdict(approved bool, problems ...string) scripted.Reply {
	if approved {
		return scripted.Reply{Text: `{"approved": true, "problems": []}`}
	}
	var ps []string
	for _, p := range problems {
		ps = append(ps, `{"severity": "error", "message": "`+p+`"}`)
	}
	return scripted.Reply{Text: `{"approved": false, "problems": [` + strings.Join(ps, ",") + `], "suggestion": "fix it"}`}
}

func verdictText(s string) scripted.Reply { return scripted.Reply{Text: s} }
