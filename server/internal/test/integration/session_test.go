package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

func lastUserContents(req scripted.RecordedRequest) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == "user" || m.Role == "assistant" {
			c := m.Content
			if i := strings.Index(c, "</context>\n\n"); i >= 0 {
				c = c[i+len("</context>\n\n"):]
			}
			out = append(out, m.Role+":"+c)
		}
	}
	return out
}

// TestBTWSideConversation: \btw messages see the history; the first normal
// message ends the side conversation and its messages leave the model's
// track while the UI keeps them, marked.
func TestBTWSideConversation(t *testing.T) {
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		return scripted.Reply{Text: fmt.Sprintf("answer %d", r.Seq)}
	})
	ed := connect(t, "", model, nil)
	r := send(t, ed, "", "main question")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 10*time.Second)
	for i, text := range []string{`\btw what is 2+2`, "/btw and 3+3"} {
		rr := send(t, ed, r.SessionID, text)
		ed.AwaitTurnFinished(r.SessionID, rr.TurnID, 10*time.Second)
		got := lastUserContents(model.Requests()[len(model.Requests())-1])
		if i == 1 && (len(got) != 5 || got[0] != "user:main question" || got[2] != "user:what is 2+2" || got[4] != "user:and 3+3") {
			t.Fatalf("during btw the model must see history + btw exchange, got %q", got)
		}
	}
	rr := send(t, ed, r.SessionID, "back to main")
	ed.AwaitTurnFinished(r.SessionID, rr.TurnID, 10*time.Second)
	got := lastUserContents(model.Requests()[len(model.Requests())-1])
	want := []string{"user:main question", "assistant:answer 1", "user:back to main"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("after btw the model track must drop it:\n got %q\nwant %q", got, want)
	}
	var load protocol.SessionLoadResult
	if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
		t.Fatal(err)
	}
	if len(load.Messages) != 8 {
		t.Fatalf("the UI keeps every message: %d", len(load.Messages))
	}
	btw := 0
	for _, m := range load.Messages {
		if m.BTW {
			btw++
		}
	}
	if btw != 4 {
		t.Fatalf("want 4 messages marked btw, got %d", btw)
	}
	// Live, too: the user message and the reply a btw turn opens are
	// marked as they arrive, so the chat labels them "Side note" at once.
	live := map[string]bool{}
	for _, ev := range ed.Events(r.SessionID) {
		if (ev.Kind == kinds.Message || ev.Kind == kinds.TurnStarted) && ev.Message != nil {
			live[ev.Message.ID] = ev.Message.BTW
		}
	}
	for _, m := range load.Messages {
		if got, ok := live[m.ID]; ok && got != m.BTW {
			t.Errorf("message %s (%s): live btw %v, stored btw %v", m.ID, m.Role, got, m.BTW)
		}
	}
	if n := len(live); n != 8 {
		t.Fatalf("want the 8 messages announced live, got %d", n)
	}
}

// TestConcurrentSessionsStayIsolated runs two sessions at once and switches
// the "view" during a run: events carry their own session, and each
// session's history holds only its own turn.
func TestConcurrentSessionsStayIsolated(t *testing.T) {
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		last := r.Messages[len(r.Messages)-1].Content
		return scripted.Reply{Text: "reply to " + last[strings.LastIndex(last, "\n")+1:], ChunkSize: 3, ChunkDelay: 5 * time.Millisecond}
	})
	ed := connect(t, "", model, nil)
	a := send(t, ed, "", "alpha")
	b := send(t, ed, "", "bravo")
	if a.SessionID == b.SessionID {
		t.Fatal("two sessions expected")
	}
	// Switching the view: the client loads b while a still streams.
	var load protocol.SessionLoadResult
	if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: b.SessionID}, &load); err != nil {
		t.Fatal(err)
	}
	ed.AwaitTurnFinished(a.SessionID, a.TurnID, 10*time.Second)
	ed.AwaitTurnFinished(b.SessionID, b.TurnID, 10*time.Second)
	if got := ed.Text(a.SessionID, ""); got != "reply to alpha" {
		t.Fatalf("session a text %q", got)
	}
	if got := ed.Text(b.SessionID, ""); got != "reply to bravo" {
		t.Fatalf("session b text %q", got)
	}
	for _, sid := range []string{a.SessionID, b.SessionID} {
		if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: sid}, &load); err != nil {
			t.Fatal(err)
		}
		if len(load.Messages) != 2 || load.Messages[0].SessionID != sid {
			t.Fatalf("session %s has %d messages", sid, len(load.Messages))
		}
	}
	// A second message to a busy session is refused clearly.
	model.SetHandler(func(*scripted.RecordedRequest) scripted.Reply {
		return scripted.Reply{Text: strings.Repeat("x", 200), ChunkSize: 1, ChunkDelay: 10 * time.Millisecond}
	})
	c := send(t, ed, a.SessionID, "long one")
	err := ed.Call("chat/send", protocol.ChatSendParams{SessionID: a.SessionID, Text: "too soon"}, nil)
	if err == nil || !strings.Contains(err.Error(), "still working") {
		t.Fatalf("busy session: %v", err)
	}
	ed.Call("chat/cancel", protocol.ChatCancelParams{SessionID: a.SessionID}, nil)
	ed.AwaitTurnFinished(a.SessionID, c.TurnID, 5*time.Second)
}

func TestSessionManagement(t *testing.T) {
	model := scripted.Start(t)
	model.SetHandler(func(*scripted.RecordedRequest) scripted.Reply { return scripted.Reply{Text: "sure"} })
	ed := connect(t, "", model, nil)
	r := send(t, ed, "", "Refactor the parser\nwith details")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 10*time.Second)
	var list protocol.SessionListResult
	ed.Call("session/list", protocol.SessionListParams{}, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].Title != "Refactor the parser with details" || list.Sessions[0].MessageCount != 2 {
		t.Fatalf("list %+v", list.Sessions)
	}
	if err := ed.Call("session/rename", protocol.SessionRenameParams{SessionID: r.SessionID, Title: "Parser work"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := ed.Call("session/rename", protocol.SessionRenameParams{SessionID: r.SessionID, Title: "  "}, nil); err == nil {
		t.Fatal("an empty title must be refused")
	}
	var hits protocol.SessionSearchResult
	ed.Call("session/search", protocol.SessionSearchParams{Query: "parser"}, &hits)
	if len(hits.Hits) == 0 || hits.Hits[0].Title != "Parser work" {
		t.Fatalf("search %+v", hits)
	}
	var exp protocol.SessionExportResult
	if err := ed.Call("session/export", protocol.SessionExportParams{SessionID: r.SessionID}, &exp); err != nil {
		t.Fatal(err)
	}
	var imp protocol.SessionInfo
	if err := ed.Call("session/import", protocol.SessionImportParams{Document: exp.Document}, &imp); err != nil {
		t.Fatal(err)
	}
	if err := ed.Call("session/import", protocol.SessionImportParams{Document: "{not json"}, nil); err == nil {
		t.Fatal("a malformed import must be refused")
	}
	if err := ed.Call("session/delete", protocol.SessionDeleteParams{SessionID: r.SessionID}, nil); err != nil {
		t.Fatal(err)
	}
	err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, nil)
	if err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("deleted session load: %v", err)
	}
	ed.Call("session/list", protocol.SessionListParams{}, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].ID != imp.ID || list.Sessions[0].MessageCount != 2 {
		t.Fatalf("after delete, the imported copy remains: %+v", list.Sessions)
	}
}

// TestSidecarKilledAtRandomPoints kills the real sidecar with SIGKILL at
// random points of scripted tool-using runs (fixed seed), restarts it on
// the same storage and checks that everything acknowledged survived, the
// database is intact, and the next request satisfies the tool-call
// invariant.
func TestSidecarKilledAtRandomPoints(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	ws, state := t.TempDir(), t.TempDir()
	model := scripted.Start(t)
	model.SetHandler(func(r *scripted.RecordedRequest) scripted.Reply {
		last := r.Messages[len(r.Messages)-1]
		if last.Role == "user" && strings.Contains(last.Content, "go on") {
			return scripted.Reply{Text: "resumed fine"}
		}
		n := 0
		for _, m := range r.Messages {
			if m.Role == "tool" {
				n++
			}
		}
		if n%6 < 5 {
			id := fmt.Sprintf("c%d_%d", r.Seq, n)
			return scripted.Reply{Text: "step ", ChunkSize: 2, ChunkDelay: 2 * time.Millisecond,
				ToolCalls: []scripted.ToolCall{{ID: id, Name: "list_files", Arguments: `{}`}}}
		}
		return scripted.Reply{Text: "finished this part", ChunkSize: 2, ChunkDelay: 2 * time.Millisecond}
	})
	settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m"}
	sid := ""
	for i := 0; i < 50; i++ {
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
		var res protocol.ChatSendResult
		if err := ed.Call("chat/send", protocol.ChatSendParams{SessionID: sid, Text: fmt.Sprintf("run %d", i)}, &res); err != nil {
			t.Fatalf("iteration %d: %v\n%s", i, err, ed.Stderr())
		}
		sid = res.SessionID
		time.Sleep(time.Duration(rng.Intn(60)) * time.Millisecond)
		// What the client has seen acknowledged before the kill.
		acked := map[string]bool{}
		for _, ev := range ed.Events(sid) {
			if ev.Kind == kinds.ToolResult {
				acked[ev.Tool.CallID] = true
			}
		}
		if err := ed.Process().Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		ed.Process().Wait()
		// Check the database directly, as the next process would find it.
		st, err := store.Open(filepath.Join(state, "sessions.db"), store.Options{})
		if err != nil {
			t.Fatalf("iteration %d: reopen: %v", i, err)
		}
		if ok, err := st.IntegrityCheck(context.Background()); err != nil || ok != "ok" {
			t.Fatalf("iteration %d: integrity %q %v", i, ok, err)
		}
		stored := map[string]bool{}
		page, err := st.LoadMessages(context.Background(), sid, 0, 10000)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range page.Messages {
			for _, p := range m.Parts {
				if p.ToolResult != nil {
					stored[p.ToolResult.ToolCallID] = true
				}
			}
		}
		st.Close()
		for id := range acked {
			if !stored[id] {
				t.Fatalf("iteration %d: acknowledged tool result %s lost", i, id)
			}
		}
	}
	// A fresh process repairs what the kills left and the next request is valid.
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	var load protocol.SessionLoadResult
	if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: sid}, &load); err != nil {
		t.Fatal(err)
	}
	if !load.Interrupted {
		t.Fatal("the session should be flagged interrupted so the UI offers Continue")
	}
	for _, m := range load.Messages {
		if m.Status == "pending" {
			t.Fatalf("message %s still pending after restart", m.ID)
		}
	}
	before := len(model.Requests())
	r := send(t, ed, sid, "go on")
	if fin := ed.AwaitTurnFinished(sid, r.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("status %s\n%s", fin.Status, ed.Stderr())
	}
	reqs := model.Requests()[before:]
	for _, q := range reqs {
		if len(q.Violations) > 0 {
			b, _ := json.Marshal(q.Messages)
			t.Fatalf("request after the crashes violates the tool-call invariant: %v\n%s", q.Violations, b)
		}
	}
}
