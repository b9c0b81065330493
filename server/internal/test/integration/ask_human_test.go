package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

var askDB = scripted.ToolCall{ID: "q1", Name: "ask_human", Arguments: `{"question":"Which database?","options":["sqlite","postgres"]}`}

// TestAskHumanAnswers: Send, Done and Cancel each reach the model as the
// ask_human result, and the turn finishes.
func TestAskHumanAnswers(t *testing.T) {
	cases := []struct {
		name string
		p    protocol.ConfirmResolveParams
		want string
	}{
		{"send", protocol.ConfirmResolveParams{Decision: "accept", Answer: "postgres"}, "The user replied: postgres"},
		{"done", protocol.ConfirmResolveParams{Decision: "accept", Answer: "sqlite", Reason: "done"}, "The user replied and is done with this topic: sqlite"},
		{"cancel", protocol.ConfirmResolveParams{Decision: "reject"}, "The user cancelled the question."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model := scripted.Start(t, scripted.Reply{ToolCalls: []scripted.ToolCall{askDB}}, scripted.Reply{Text: "OK."})
			ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: t.TempDir(), StateDir: t.TempDir(),
				Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
			r := send(t, ed, "", "set up storage")
			q := awaitConfirm(t, ed, 1)
			if q.Kind != "question" || q.Question != "Which database?" || len(q.Options) != 2 {
				t.Fatalf("asked %+v", q)
			}
			c.p.ID = q.ID
			resolve(t, ed, c.p)
			if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
				t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
			}
			if got := toolResultFor(t, model, "q1"); got != c.want {
				t.Fatalf("the model got %q, want %q", got, c.want)
			}
			expectValid(t, model)
			expectSettled(t, ed, r.SessionID)
		})
	}
}

// TestAskHumanTimeout: with a short askHuman.timeoutMs the model is told
// nobody answered, and the question is withdrawn.
func TestAskHumanTimeout(t *testing.T) {
	model := scripted.Start(t, scripted.Reply{ToolCalls: []scripted.ToolCall{askDB}}, scripted.Reply{Text: "I'll pick sqlite."})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: t.TempDir(), StateDir: t.TempDir(),
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m", "askHuman.timeoutMs": 1000}})
	r := send(t, ed, "", "set up storage")
	awaitConfirm(t, ed, 1)
	if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("turn ended %s\n%s", fin.Status, ed.Stderr())
	}
	if got := toolResultFor(t, model, "q1"); !strings.HasPrefix(got, "No answer within 1s") {
		t.Fatalf("the model got %q", got)
	}
	expectSettled(t, ed, r.SessionID)
}

// TestAskHumanResumedAfterRestart: the sidecar dies (killed, reload,
// clean exit) while the question waits; the next one shows it again and
// the reply reaches the model with no missing tool result.
func TestAskHumanResumedAfterRestart(t *testing.T) {
	for _, how := range stoppers {
		t.Run(how.name, func(t *testing.T) {
			p := parkThenStop(t, how, map[string]string{"a.txt": aText}, askDB, scripted.Reply{Text: "Postgres it is."})
			ed, load := p.restart(t)
			c := p.expectRestored(t, ed, load)
			if c.Question != "Which database?" {
				t.Fatalf("restored question %+v", c)
			}
			resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept", Answer: "postgres"})
			if fin := ed.AwaitTurnFinished(p.sid, p.turn, 20*time.Second); fin.Status != "done" {
				t.Fatalf("resumed turn ended %s\n%s", fin.Status, ed.Stderr())
			}
			if got := toolResultFor(t, p.model, "q1"); got != "The user replied: postgres" {
				t.Fatalf("the model got %q", got)
			}
			expectValid(t, p.model)
			expectSettled(t, ed, p.sid)
		})
	}
}

// TestAskHumanTimeoutSurvivesRestart: a question restored after a restart
// still times out (counted from when it was first asked), and the resumed
// run tells the model nobody answered; nothing is left waiting.
func TestAskHumanTimeoutSurvivesRestart(t *testing.T) {
	p := parkThenStop(t, stoppers[0], map[string]string{"a.txt": aText}, askDB, scripted.Reply{Text: "I'll pick sqlite."})
	p.settings["askHuman.timeoutMs"] = 6000
	ed, load := p.restart(t)
	c := p.expectRestored(t, ed, load)
	if fin := ed.AwaitTurnFinished(p.sid, p.turn, 30*time.Second); fin.Status != "done" {
		t.Fatalf("resumed turn ended %s\n%s", fin.Status, ed.Stderr())
	}
	if got := toolResultFor(t, p.model, "q1"); got != "No answer within 6s; decide yourself or stop and explain." {
		t.Fatalf("the model got %q", got)
	}
	awaitClosed(t, ed, c.ID, "cancelled")
	expectValid(t, p.model)
	expectSettled(t, ed, p.sid)
}
