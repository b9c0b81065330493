package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

func call(id, name, args string) scripted.ToolCall {
	return scripted.ToolCall{ID: id, Name: name, Arguments: args}
}

// awaitConfirm waits for the n-th confirm/requested (1-based).
func awaitConfirm(t *testing.T, ed *fakeeditor.Editor, n int) protocol.ConfirmRequest {
	t.Helper()
	var c protocol.ConfirmRequest
	ed.Await("confirm/requested", 20*time.Second, func(e *fakeeditor.Editor) bool {
		ns := e.Notifications("confirm/requested")
		if len(ns) < n {
			return false
		}
		return json.Unmarshal(ns[n-1].Params, &c) == nil
	})
	return c
}

func resolve(t *testing.T, ed *fakeeditor.Editor, p protocol.ConfirmResolveParams) {
	t.Helper()
	if err := ed.Call("confirm/resolve", p, nil); err != nil {
		t.Fatalf("confirm/resolve: %v", err)
	}
}

// lastToolResult is the tool message the model received in its last request.
func lastToolResult(t *testing.T, model *scripted.Server) string {
	t.Helper()
	reqs := model.Requests()
	msgs := reqs[len(reqs)-1].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "tool" {
			return msgs[i].Content
		}
	}
	t.Fatalf("no tool result in the last request")
	return ""
}

func editSession(t *testing.T, bin string, applyEdit bool, edits ...scripted.ToolCall) (*fakeeditor.Editor, *scripted.Server, string) {
	t.Helper()
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "b.txt"), []byte("bee\n"), 0o644)
	replies := []scripted.Reply{{ToolCalls: []scripted.ToolCall{call("r1", "read_file", `{"filePath":"a.txt"}`), call("r2", "read_file", `{"filePath":"b.txt"}`)}}}
	for _, e := range edits {
		replies = append(replies, scripted.Reply{ToolCalls: []scripted.ToolCall{e}})
	}
	replies = append(replies, scripted.Reply{Text: "done"})
	model := scripted.Start(t, replies...)
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, ApplyEdit: applyEdit,
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	return ed, model, ws
}

func TestEditAccept(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ed, model, ws := editSession(t, bin, false, call("e1", "edit", `{"filePath":"a.txt","startLine":2,"endLine":2,"newContent":"TWO"}`))
		r := send(t, ed, "", "capitalise two")
		c := awaitConfirm(t, ed, 1)
		if c.Kind != "edit" || c.RelPath != "a.txt" || c.Original != "one\ntwo\nthree\n" || c.Proposed != "one\nTWO\nthree\n" {
			t.Fatalf("confirmation %+v", c)
		}
		if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "one\ntwo\nthree\n" {
			t.Fatal("written before the user accepted")
		}
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
		if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second); fin.Status != "done" {
			t.Fatalf("status %s", fin.Status)
		}
		if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "one\nTWO\nthree\n" {
			t.Fatalf("file: %q", b)
		}
		if n := len(ed.Notifications("confirm/closed")); n != 1 {
			t.Fatalf("want the confirmation closed once, got %d", n)
		}
		if v := model.Violations(); len(v) > 0 {
			t.Fatal(v)
		}
	})
}

func TestEditRejectWithReason(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ed, model, ws := editSession(t, bin, false, call("e1", "edit", `{"filePath":"a.txt","startLine":2,"endLine":2,"newContent":"TWO"}`))
		r := send(t, ed, "", "capitalise two")
		c := awaitConfirm(t, ed, 1)
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "reject", Reason: "keep it lowercase please"})
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "one\ntwo\nthree\n" {
			t.Fatalf("a rejected edit was written: %q", b)
		}
		got := lastToolResult(t, model)
		if !strings.Contains(got, "rejected") || !strings.Contains(got, "keep it lowercase please") {
			t.Fatalf("the model was not told the reason: %q", got)
		}
	})
}

func TestEditModifiedByUserBeforeAccept(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ed, model, ws := editSession(t, bin, false, call("e1", "edit", `{"filePath":"a.txt","startLine":2,"endLine":2,"newContent":"TWO"}`))
		r := send(t, ed, "", "capitalise two")
		c := awaitConfirm(t, ed, 1)
		mine := "one\nTwo (by hand)\nthree\n"
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept", Content: &mine})
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != mine {
			t.Fatalf("file %q, want the user's version", b)
		}
		got := lastToolResult(t, model)
		if !strings.Contains(got, "the user modified your edit:") || !strings.Contains(got, "+Two (by hand)") || !strings.Contains(got, "-TWO") {
			t.Fatalf("the model did not get the user's diff: %q", got)
		}
	})
}

func TestEditRefusedOverDirtyBuffer(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ed, model, ws := editSession(t, bin, true, call("e1", "edit", `{"filePath":"a.txt","startLine":2,"endLine":2,"newContent":"TWO"}`))
		var applyCalls int
		ed.OnRequest("editor/applyEdit", func(json.RawMessage) (any, error) {
			applyCalls++
			return protocol.ApplyEditResult{Applied: false, Reason: "the file has unsaved changes in the editor"}, nil
		})
		r := send(t, ed, "", "capitalise two")
		c := awaitConfirm(t, ed, 1)
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if applyCalls != 1 {
			t.Fatalf("editor/applyEdit called %d times", applyCalls)
		}
		if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "one\ntwo\nthree\n" {
			t.Fatalf("written over a dirty buffer: %q", b)
		}
		if got := lastToolResult(t, model); !strings.Contains(got, "unsaved changes") {
			t.Fatalf("the model was not told why: %q", got)
		}
	})
}

func TestEditAppliedThroughEditor(t *testing.T) {
	ed, _, ws := editSession(t, "", true, call("e1", "edit", `{"filePath":"a.txt","startLine":2,"endLine":2,"newContent":"TWO"}`))
	ed.OnRequest("editor/applyEdit", func(raw json.RawMessage) (any, error) {
		var p protocol.ApplyEditParams
		json.Unmarshal(raw, &p)
		// The fake editor writes like VS Code's WorkspaceEdit + save would.
		return protocol.ApplyEditResult{Applied: true}, os.WriteFile(p.Path, []byte(p.Content), 0o644)
	})
	r := send(t, ed, "", "capitalise two")
	resolve(t, ed, protocol.ConfirmResolveParams{ID: awaitConfirm(t, ed, 1).ID, Decision: "accept"})
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "one\nTWO\nthree\n" {
		t.Fatalf("file %q", b)
	}
}

func TestQueueOfThreeProposals(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ed, model, ws := editSession(t, bin, false,
			call("e1", "edit", `{"filePath":"a.txt","startLine":1,"endLine":1,"newContent":"ONE"}`),
			call("e2", "write_file", `{"filePath":"c.txt","content":"new file\n"}`),
			call("e3", "edit", `{"filePath":"b.txt","startLine":1,"endLine":1,"newContent":"BEE"}`))
		r := send(t, ed, "", "three edits")
		want := []struct {
			path   string
			accept bool
		}{{"a.txt", true}, {"c.txt", false}, {"b.txt", true}}
		for i, w := range want {
			c := awaitConfirm(t, ed, i+1)
			if c.RelPath != w.path {
				t.Fatalf("proposal %d is for %s, want %s (in order)", i+1, c.RelPath, w.path)
			}
			d := "reject"
			if w.accept {
				d = "accept"
			}
			resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: d})
		}
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		a, _ := os.ReadFile(filepath.Join(ws, "a.txt"))
		b, _ := os.ReadFile(filepath.Join(ws, "b.txt"))
		if string(a) != "ONE\ntwo\nthree\n" || string(b) != "BEE\n" {
			t.Fatalf("a=%q b=%q", a, b)
		}
		if _, err := os.Stat(filepath.Join(ws, "c.txt")); !os.IsNotExist(err) {
			t.Fatal("the rejected new file exists")
		}
		if v := model.Violations(); len(v) > 0 {
			t.Fatal(v)
		}
	})
}

func TestCancelClosesPendingConfirmation(t *testing.T) {
	ed, model, ws := editSession(t, "", false, call("e1", "edit", `{"filePath":"a.txt","startLine":2,"endLine":2,"newContent":"TWO"}`))
	r := send(t, ed, "", "capitalise two")
	c := awaitConfirm(t, ed, 1)
	if err := ed.Call("chat/cancel", protocol.ChatCancelParams{SessionID: r.SessionID}, nil); err != nil {
		t.Fatal(err)
	}
	if fin := ed.AwaitTurnFinished(r.SessionID, r.TurnID, 5*time.Second); fin.Status != "cancelled" {
		t.Fatalf("status %s", fin.Status)
	}
	var closed protocol.ConfirmClosed
	json.Unmarshal(ed.Notifications("confirm/closed")[0].Params, &closed)
	if closed.ID != c.ID || closed.Reason != "cancelled" {
		t.Fatalf("closed %+v", closed)
	}
	// Answering afterwards is a clear error, and nothing is written.
	err := ed.Call("confirm/resolve", protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"}, nil)
	if err == nil || !strings.Contains(err.Error(), "no such pending confirmation") {
		t.Fatalf("late resolve: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "one\ntwo\nthree\n" {
		t.Fatalf("file %q", b)
	}
	// The next request repairs nothing because every call got its result.
	send(t, ed, r.SessionID, "never mind")
	ed.Await("second turn", 20*time.Second, func(e *fakeeditor.Editor) bool { return len(model.Requests()) >= 3 })
	if v := model.Violations(); len(v) > 0 {
		t.Fatal(v)
	}
}

func TestShellConfirmDenyAndAllow(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ws := t.TempDir()
		model := scripted.Start(t,
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("s1", "run_shell_command", `{"command":"touch denied.txt"}`)}},
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("s2", "run_shell_command", `{"command":"touch allowed.txt && echo made"}`)}},
			scripted.Reply{Text: "ok"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
		r := send(t, ed, "", "make files")
		c1 := awaitConfirm(t, ed, 1)
		if c1.Kind != "shell" || c1.Command != "touch denied.txt" || c1.Analysis == nil || c1.Analysis.Class == "" {
			t.Fatalf("shell confirmation %+v", c1)
		}
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c1.ID, Decision: "reject", Reason: "no"})
		c2 := awaitConfirm(t, ed, 2)
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c2.ID, Decision: "accept"})
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if _, err := os.Stat(filepath.Join(ws, "denied.txt")); !os.IsNotExist(err) {
			t.Fatal("a denied command ran")
		}
		if _, err := os.Stat(filepath.Join(ws, "allowed.txt")); err != nil {
			t.Fatal("the allowed command did not run")
		}
		var sawResult bool
		for _, ev := range ed.Events(r.SessionID) {
			if ev.Kind == kinds.ToolResult && ev.Tool.CallID == "s2" && ev.Tool.OK && strings.Contains(ev.Tool.Output, "made") {
				sawResult = true
			}
		}
		if !sawResult {
			t.Fatal("no result card for the allowed command")
		}
	})
}

// TestProposalsForSeveralFilesArePendingTogether: one round that edits two
// files asks for both at once (the chat's review list and "Review all"
// need them side by side); each is written only when accepted.
func TestProposalsForSeveralFilesArePendingTogether(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "b.txt"), []byte("bee\n"), 0o644)
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{call("r1", "read_file", `{"filePath":"a.txt"}`), call("r2", "read_file", `{"filePath":"b.txt"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{
			call("e1", "edit", `{"filePath":"a.txt","startLine":1,"endLine":1,"newContent":"ONE"}`),
			call("e2", "edit", `{"filePath":"b.txt","startLine":1,"endLine":1,"newContent":"BEE"}`),
			call("e3", "edit", `{"filePath":"a.txt","startLine":3,"endLine":3,"newContent":"THREE"}`),
		}},
		scripted.Reply{Text: "both done"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Workspace: ws, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed, "", "edit both")
	ed.Await("two proposals at once", 20*time.Second, func(e *fakeeditor.Editor) bool {
		return len(e.Notifications("confirm/requested")) >= 2
	})
	paths := map[string]protocol.ConfirmRequest{}
	for _, n := range ed.Notifications("confirm/requested") {
		var c protocol.ConfirmRequest
		json.Unmarshal(n.Params, &c)
		paths[c.RelPath] = c
	}
	if len(paths) != 2 || paths["a.txt"].ID == "" || paths["b.txt"].ID == "" {
		t.Fatalf("pending together: %+v", paths)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: paths["b.txt"].ID, Decision: "accept"})
	resolve(t, ed, protocol.ConfirmResolveParams{ID: paths["a.txt"].ID, Decision: "accept"})
	// The second edit of a.txt comes after the first, in the model's order.
	c3 := awaitConfirm(t, ed, 3)
	if c3.RelPath != "a.txt" || c3.Original != "ONE\ntwo\nthree\n" {
		t.Fatalf("third proposal %+v", c3)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c3.ID, Decision: "accept"})
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	a, _ := os.ReadFile(filepath.Join(ws, "a.txt"))
	b, _ := os.ReadFile(filepath.Join(ws, "b.txt"))
	if string(a) != "ONE\ntwo\nTHREE\n" || string(b) != "BEE\n" {
		t.Fatalf("a=%q b=%q", a, b)
	}
	if v := model.Violations(); len(v) > 0 {
		t.Fatal(v)
	}
}
