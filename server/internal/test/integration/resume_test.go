package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// parked is a real sidecar whose turn waits on a confirmation, with what
// is needed to restart another one on the same storage.
type parked struct {
	ws, state string
	settings  map[string]any
	model     *scripted.Server
	sid, turn string
	confirm   protocol.ConfirmRequest
}

// stopper ends the first sidecar while its turn is parked: how a window
// reload, a crash or a clean exit ends the process.
type stopper struct {
	name string
	stop func(t *testing.T, ed *fakeeditor.Editor)
}

var stoppers = []stopper{
	{"sigkill", func(t *testing.T, ed *fakeeditor.Editor) {
		if err := ed.Process().Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		ed.Process().Wait()
	}},
	// A reload closes the extension host and with it the sidecar's stdin.
	{"stdin-closed", func(t *testing.T, ed *fakeeditor.Editor) {
		ed.Conn.Close()
		waitExit(t, ed)
	}},
	{"shutdown-exit", func(t *testing.T, ed *fakeeditor.Editor) {
		if err := ed.Call("shutdown", nil, nil); err != nil {
			t.Fatalf("shutdown: %v", err)
		}
		_ = ed.Conn.Notify(t.Context(), "exit", nil)
		waitExit(t, ed)
	}},
}

func waitExit(t *testing.T, ed *fakeeditor.Editor) {
	t.Helper()
	done := make(chan struct{})
	go func() { ed.Process().Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatalf("the sidecar did not exit\n%s", ed.Stderr())
	}
}

// parkThenStop starts the built sidecar, lets the model make call, waits
// for its confirmation and stops the sidecar with how.
func parkThenStop(t *testing.T, how stopper, files map[string]string, call scripted.ToolCall, after ...scripted.Reply) *parked {
	t.Helper()
	p := &parked{ws: t.TempDir(), state: t.TempDir()}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(p.ws, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	replies := []scripted.Reply{{ToolCalls: []scripted.ToolCall{{ID: "r1", Name: "read_file", Arguments: `{"filePath":"a.txt"}`}}},
		{Text: "Let me do it.", ToolCalls: []scripted.ToolCall{call}}}
	p.model = scripted.Start(t, append(replies, after...)...)
	p.settings = map[string]any{"apiBaseUrl": p.model.URL(), "model": "m"}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: p.ws, StateDir: p.state, Settings: p.settings})
	r := send(t, ed, "", "please change it")
	p.sid, p.turn = r.SessionID, r.TurnID
	p.confirm = awaitConfirm(t, ed, 1)
	if p.confirm.ToolCallID != call.ID {
		t.Fatalf("confirmation for %q, want %q", p.confirm.ToolCallID, call.ID)
	}
	how.stop(t, ed)
	return p
}

// restart starts a new sidecar on the same storage and returns it with
// the session as session/load shows it.
func (p *parked) restart(t *testing.T) (*fakeeditor.Editor, protocol.SessionLoadResult) {
	t.Helper()
	return p.restartWith(t, false)
}

func (p *parked) restartWith(t *testing.T, applyEdit bool) (*fakeeditor.Editor, protocol.SessionLoadResult) {
	t.Helper()
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: p.ws, StateDir: p.state, Settings: p.settings, ApplyEdit: applyEdit})
	var load protocol.SessionLoadResult
	if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: p.sid}, &load); err != nil {
		t.Fatalf("session/load: %v\n%s", err, ed.Stderr())
	}
	return ed, load
}

// expectRestored checks the restarted sidecar shows the same question
// again, both in session/load and as confirm/requested.
func (p *parked) expectRestored(t *testing.T, ed *fakeeditor.Editor, load protocol.SessionLoadResult) protocol.ConfirmRequest {
	t.Helper()
	if len(load.Pending) != 1 {
		t.Fatalf("want the parked confirmation pending after the restart, got %+v\n%s", load.Pending, ed.Stderr())
	}
	c := load.Pending[0]
	if c.ToolCallID != p.confirm.ToolCallID || c.Kind != p.confirm.Kind || c.TurnID != p.turn || c.SessionID != p.sid ||
		c.Original != p.confirm.Original || c.Proposed != p.confirm.Proposed || c.Command != p.confirm.Command {
		t.Fatalf("restored confirmation %+v\nwant the one asked before %+v", c, p.confirm)
	}
	if load.Interrupted {
		t.Fatal("a run waiting on its question is not an interrupted one")
	}
	last := load.Messages[len(load.Messages)-1]
	if last.Role != "assistant" || last.Status != "pending" {
		t.Fatalf("the parked reply is %s/%s, want a pending assistant message", last.Role, last.Status)
	}
	if got := awaitConfirm(t, ed, 1); got.ID != c.ID {
		t.Fatalf("confirm/requested announced %s, session/load %s", got.ID, c.ID)
	}
	return c
}

func toolResultFor(t *testing.T, model *scripted.Server, callID string) string {
	t.Helper()
	reqs := model.Requests()
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" && m.ToolCallID == callID {
			return m.Content
		}
	}
	t.Fatalf("the last request has no result for %s", callID)
	return ""
}

func expectValid(t *testing.T, model *scripted.Server) {
	t.Helper()
	if v := model.Violations(); len(v) > 0 {
		t.Fatalf("model requests violate the tool-call invariant: %v", v)
	}
}

func expectSettled(t *testing.T, ed *fakeeditor.Editor, sid string) protocol.SessionLoadResult {
	t.Helper()
	var load protocol.SessionLoadResult
	if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: sid}, &load); err != nil {
		t.Fatal(err)
	}
	if len(load.Pending) != 0 || load.RunningTurnID != "" || len(load.Dialogs) != 0 {
		t.Fatalf("after the turn: pending %+v running %q open dialogs %+v", load.Pending, load.RunningTurnID, load.Dialogs)
	}
	for _, m := range load.Messages {
		if m.Status == "pending" {
			t.Fatalf("message %s still pending", m.ID)
		}
	}
	return load
}

const aText = "one\ntwo\nthree\n"

var editTwo = scripted.ToolCall{ID: "e1", Name: "edit", Arguments: `{"filePath":"a.txt","startLine":2,"endLine":2,"newContent":"TWO"}`}

// TestResumeEditAcceptedAfterRestart: the turn waits on an edit; the
// sidecar dies (killed, or its stdin closed by a reload, or a clean exit);
// the next one asks again, and accepting writes the file, hands the model
// the tool's result and finishes the turn.
func TestResumeEditAcceptedAfterRestart(t *testing.T) {
	for _, how := range stoppers {
		t.Run(how.name, func(t *testing.T) {
			p := parkThenStop(t, how, map[string]string{"a.txt": aText}, editTwo, scripted.Reply{Text: "Capitalised."})
			if b, _ := os.ReadFile(filepath.Join(p.ws, "a.txt")); string(b) != aText {
				t.Fatalf("written before the user answered: %q", b)
			}
			ed, load := p.restart(t)
			c := p.expectRestored(t, ed, load)
			resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
			if fin := ed.AwaitTurnFinished(p.sid, p.turn, 20*time.Second); fin.Status != "done" {
				t.Fatalf("resumed turn ended %s\n%s", fin.Status, ed.Stderr())
			}
			if b, _ := os.ReadFile(filepath.Join(p.ws, "a.txt")); string(b) != "one\nTWO\nthree\n" {
				t.Fatalf("file after accepting: %q", b)
			}
			if got := toolResultFor(t, p.model, "e1"); strings.HasPrefix(got, "Error:") || !strings.Contains(got, "a.txt") {
				t.Fatalf("the model did not get the edit's result: %q", got)
			}
			if n := len(p.model.Requests()); n != 3 {
				t.Fatalf("want 3 model requests (read, edit, reply), got %d", n)
			}
			expectValid(t, p.model)
			load = expectSettled(t, ed, p.sid)
			last := load.Messages[len(load.Messages)-1]
			if last.Status != "done" {
				t.Fatalf("the resumed reply is %s", last.Status)
			}
			var call, result bool
			for _, part := range last.Parts {
				call = call || (part.Type == "tool_call" && part.ToolCallID == "e1" && part.Status == "done")
				result = result || (part.Type == "tool_result" && part.ToolCallID == "e1" && part.OK)
			}
			if !call || !result {
				t.Fatalf("the edit card is not complete: %+v", last.Parts)
			}
			if ed.Text(p.sid, p.turn) != "Capitalised." {
				t.Fatalf("the loop did not continue to the model's reply: %q", ed.Text(p.sid, p.turn))
			}
			// Answering twice is refused: the question is closed.
			if err := ed.Call("confirm/resolve", protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"}, nil); err == nil {
				t.Fatal("a second answer was accepted")
			}
		})
	}
}

// TestResumeEditAppliedThroughEditor: after the restart an accepted edit
// goes through the editor (its undo stack), exactly once.
func TestResumeEditAppliedThroughEditor(t *testing.T) {
	p := parkThenStop(t, stoppers[2], map[string]string{"a.txt": aText}, editTwo, scripted.Reply{Text: "Capitalised."})
	ed, load := p.restartWith(t, true)
	var applied []protocol.ApplyEditParams
	var mu sync.Mutex
	ed.OnRequest("editor/applyEdit", func(raw json.RawMessage) (any, error) {
		var a protocol.ApplyEditParams
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, err
		}
		mu.Lock()
		applied = append(applied, a)
		mu.Unlock()
		return protocol.ApplyEditResult{Applied: true}, os.WriteFile(a.Path, []byte(a.Content), 0o644)
	})
	c := p.expectRestored(t, ed, load)
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
	if fin := ed.AwaitTurnFinished(p.sid, p.turn, 20*time.Second); fin.Status != "done" {
		t.Fatalf("resumed turn ended %s", fin.Status)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(applied) != 1 || applied[0].Content != "one\nTWO\nthree\n" {
		t.Fatalf("editor/applyEdit calls: %+v", applied)
	}
	if b, _ := os.ReadFile(filepath.Join(p.ws, "a.txt")); string(b) != "one\nTWO\nthree\n" {
		t.Fatalf("file %q", b)
	}
	expectValid(t, p.model)
}

// TestResumeEditRejectedAfterRestart: a rejection with a reason after the
// restart leaves the file alone and reaches the model.
func TestResumeEditRejectedAfterRestart(t *testing.T) {
	p := parkThenStop(t, stoppers[0], map[string]string{"a.txt": aText}, editTwo, scripted.Reply{Text: "Left as is."})
	ed, load := p.restart(t)
	c := p.expectRestored(t, ed, load)
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "reject", Reason: "keep it lowercase please"})
	if fin := ed.AwaitTurnFinished(p.sid, p.turn, 20*time.Second); fin.Status != "done" {
		t.Fatalf("resumed turn ended %s", fin.Status)
	}
	if b, _ := os.ReadFile(filepath.Join(p.ws, "a.txt")); string(b) != aText {
		t.Fatalf("a rejected edit was written: %q", b)
	}
	got := toolResultFor(t, p.model, "e1")
	if !strings.Contains(got, "rejected") || !strings.Contains(got, "keep it lowercase please") {
		t.Fatalf("the model was not told the reason: %q", got)
	}
	expectValid(t, p.model)
	expectSettled(t, ed, p.sid)
}

// TestNewMessageInsteadOfRestoredAnswer: sending a message instead of
// answering closes the question, gives the parked call a "not executed"
// result, and the next request is valid.
func TestNewMessageInsteadOfRestoredAnswer(t *testing.T) {
	p := parkThenStop(t, stoppers[0], map[string]string{"a.txt": aText}, editTwo, scripted.Reply{Text: "Fine, I will not."})
	ed, load := p.restart(t)
	c := p.expectRestored(t, ed, load)
	r := send(t, ed, p.sid, "never mind")
	if fin := ed.AwaitTurnFinished(p.sid, r.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("the new turn ended %s\n%s", fin.Status, ed.Stderr())
	}
	var closed protocol.ConfirmClosed
	ns := ed.Notifications("confirm/closed")
	if len(ns) != 1 || json.Unmarshal(ns[0].Params, &closed) != nil || closed.ID != c.ID || closed.Reason != "cancelled" {
		t.Fatalf("the restored question was not closed: %+v", ns)
	}
	if err := ed.Call("confirm/resolve", protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"}, nil); err == nil {
		t.Fatal("the closed question still accepted an answer")
	}
	if got := toolResultFor(t, p.model, "e1"); !strings.Contains(got, "not executed") || !strings.Contains(got, "new message") {
		t.Fatalf("the parked call's result: %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(p.ws, "a.txt")); string(b) != aText {
		t.Fatalf("the unanswered edit was written: %q", b)
	}
	expectValid(t, p.model)
	load = expectSettled(t, ed, p.sid)
	if n := len(load.Messages); n != 4 || load.Messages[1].Status != "cancelled" {
		t.Fatalf("want the parked reply cancelled then the new exchange, got %d messages", n)
	}
}

// TestStopRestoredQuestion: Stop on a session whose question was restored
// closes it like a new message would, and announces the turn's end.
func TestStopRestoredQuestion(t *testing.T) {
	p := parkThenStop(t, stoppers[0], map[string]string{"a.txt": aText}, editTwo, scripted.Reply{Text: "ok"})
	ed, load := p.restart(t)
	p.expectRestored(t, ed, load)
	if err := ed.Call("chat/cancel", protocol.ChatCancelParams{SessionID: p.sid}, nil); err != nil {
		t.Fatal(err)
	}
	if fin := ed.AwaitTurnFinished(p.sid, p.turn, 10*time.Second); fin.Status != "cancelled" {
		t.Fatalf("stopped turn ended %s", fin.Status)
	}
	expectSettled(t, ed, p.sid)
	r := send(t, ed, p.sid, "go on")
	ed.AwaitTurnFinished(p.sid, r.TurnID, 20*time.Second)
	if got := toolResultFor(t, p.model, "e1"); !strings.Contains(got, "not executed") || !strings.Contains(got, "stopped") {
		t.Fatalf("the parked call's result: %q", got)
	}
	expectValid(t, p.model)
}

// TestRestoredEditRefusedWhenFileChanged: a file changed on disk while
// the sidecar was down is not overwritten by the accepted proposal.
func TestRestoredEditRefusedWhenFileChanged(t *testing.T) {
	p := parkThenStop(t, stoppers[0], map[string]string{"a.txt": aText}, editTwo, scripted.Reply{Text: "I will re-read it."})
	mine := "one\ntwo (edited by hand)\nthree\n"
	if err := os.WriteFile(filepath.Join(p.ws, "a.txt"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	ed, load := p.restart(t)
	c := p.expectRestored(t, ed, load)
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
	if fin := ed.AwaitTurnFinished(p.sid, p.turn, 20*time.Second); fin.Status != "done" {
		t.Fatalf("resumed turn ended %s", fin.Status)
	}
	if b, _ := os.ReadFile(filepath.Join(p.ws, "a.txt")); string(b) != mine {
		t.Fatalf("the user's change was overwritten: %q", b)
	}
	if got := toolResultFor(t, p.model, "e1"); !strings.Contains(got, "changed") || !strings.Contains(got, "nothing was written") {
		t.Fatalf("the model was not told the file changed: %q", got)
	}
	expectValid(t, p.model)
	expectSettled(t, ed, p.sid)
}

// TestResumeShellAfterRestart: an allowed command runs after the restart
// and the model gets its output; a denied one never runs.
func TestResumeShellAfterRestart(t *testing.T) {
	for _, allow := range []bool{true, false} {
		name := map[bool]string{true: "allow", false: "deny"}[allow]
		t.Run(name, func(t *testing.T) {
			cmd := scripted.ToolCall{ID: "s1", Name: "run_shell_command", Arguments: `{"command":"cp a.txt out.txt && echo copied it"}`}
			p := parkThenStop(t, stoppers[1], map[string]string{"a.txt": aText}, cmd, scripted.Reply{Text: "Done."})
			ed, load := p.restart(t)
			c := p.expectRestored(t, ed, load)
			if c.Kind != "shell" || !strings.Contains(c.Command, "cp a.txt out.txt") {
				t.Fatalf("restored shell confirmation %+v", c)
			}
			d := protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"}
			if !allow {
				d = protocol.ConfirmResolveParams{ID: c.ID, Decision: "reject", Reason: "not now"}
			}
			resolve(t, ed, d)
			if fin := ed.AwaitTurnFinished(p.sid, p.turn, 20*time.Second); fin.Status != "done" {
				t.Fatalf("resumed turn ended %s\n%s", fin.Status, ed.Stderr())
			}
			b, err := os.ReadFile(filepath.Join(p.ws, "out.txt"))
			got := toolResultFor(t, p.model, "s1")
			if allow {
				if err != nil || string(b) != aText || !strings.Contains(got, "copied it") {
					t.Fatalf("allowed command: file %q (%v), result %q", b, err, got)
				}
			} else if err == nil || !strings.Contains(got, "denied") || !strings.Contains(got, "not now") {
				t.Fatalf("denied command: ran=%v, result %q", err == nil, got)
			}
			expectValid(t, p.model)
			expectSettled(t, ed, p.sid)
		})
	}
}

// TestInterruptedStreamingStillCancelled: a run killed while streaming
// keeps the old recovery: finalised as cancelled with a notice, the
// session flagged Interrupted, nothing pending.
func TestInterruptedStreamingStillCancelled(t *testing.T) {
	ws, state := t.TempDir(), t.TempDir()
	model := scripted.Start(t, scripted.Reply{Text: strings.Repeat("slow ", 400), ChunkSize: 5, ChunkDelay: 5 * time.Millisecond})
	settings := map[string]any{"apiBaseUrl": model.URL(), "model": "m"}
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	r := send(t, ed, "", "talk slowly")
	ed.Await("some text", 10*time.Second, func(e *fakeeditor.Editor) bool { return e.Text(r.SessionID, r.TurnID) != "" })
	stoppers[0].stop(t, ed)
	ed2 := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: ws, StateDir: state, Settings: settings})
	var load protocol.SessionLoadResult
	if err := ed2.Call("session/load", protocol.SessionLoadParams{SessionID: r.SessionID}, &load); err != nil {
		t.Fatal(err)
	}
	last := load.Messages[len(load.Messages)-1]
	if !load.Interrupted || len(load.Pending) != 0 || last.Status != "cancelled" {
		t.Fatalf("interrupted=%v pending=%d last=%s", load.Interrupted, len(load.Pending), last.Status)
	}
	notice := false
	for _, part := range last.Parts {
		notice = notice || (part.Type == "notice" && strings.Contains(part.Text, "interrupted"))
	}
	if !notice {
		t.Fatalf("no interruption notice: %+v", last.Parts)
	}
}
