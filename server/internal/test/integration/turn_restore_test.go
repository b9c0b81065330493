package integration

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// TestRestoreTurnMultiRoot: in a workspace of two folders (one a git
// repository, one not), a chat-only turn leaves no snapshot and offers no
// rollback; a turn that edits a file in one folder and creates one with a
// shell command in the other carries its before-snapshots, one per folder,
// live and in session/load. snapshot/restoreTurn says what it would change
// without changing it, then restores both folders in one call, tells the
// user in the chat and the model in its own track.
func TestRestoreTurnMultiRoot(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ws1, ws2 := t.TempDir(), t.TempDir()
		os.WriteFile(filepath.Join(ws1, "a.txt"), []byte("a1\n"), 0o644)
		os.WriteFile(filepath.Join(ws1, "other.txt"), []byte("o\n"), 0o644)
		gitInit(t, ws1)
		os.WriteFile(filepath.Join(ws2, "b.txt"), []byte("b1\n"), 0o644)
		made := filepath.Join(ws2, "made.txt")
		model := scripted.Start(t,
			scripted.Reply{Text: "Just chatting."},
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("r1", "read_file", `{"filePath":"a.txt"}`)}},
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("w1", "write_file", `{"filePath":"a.txt","content":"a2\n"}`)}},
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("s1", "run_shell_command", mustJSON(t, map[string]string{"command": "cp " + filepath.Join(ws2, "b.txt") + " " + made}))}},
			scripted.Reply{Text: "Fixed."},
			scripted.Reply{Text: "Understood."})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws1, MoreFolders: []string{ws2}, Settings: map[string]any{
			"apiBaseUrl": model.URL(), "model": "m", "autoApprove.edits": true, "confirmShellCommand": false}})

		chat := send(t, ed, "", "Hello there")
		ed.AwaitTurnFinished(chat.SessionID, chat.TurnID, 20*time.Second)
		sid := chat.SessionID
		var list protocol.SnapshotListResult
		if err := ed.Call("snapshot/list", protocol.SnapshotListParams{SessionID: sid}, &list); err != nil {
			t.Fatal(err)
		}
		if len(list.Snapshots) != 0 {
			t.Fatalf("a chat-only turn left snapshots: %+v", list.Snapshots)
		}

		fix := send(t, ed, sid, "Fix the bug\nin both folders")
		ed.AwaitTurnFinished(sid, fix.TurnID, 20*time.Second)
		if b, err := os.ReadFile(made); err != nil || string(b) != "b1\n" {
			for _, ev := range ed.Events(sid) {
				if ev.Tool != nil {
					t.Logf("%s %+v", ev.Kind, *ev.Tool)
				}
			}
			t.Fatalf("the shell command did not create made.txt: %v %q", err, b)
		}

		// Live: one snapshots event for the turn's user message, one per root.
		var live []protocol.TurnSnapshot
		for _, ev := range ed.Events(sid) {
			if ev.Kind == kinds.Snapshots {
				if ev.MessageID != fix.TurnID || ev.TurnID != fix.TurnID || live != nil {
					t.Fatalf("unexpected snapshots event %+v (turn %s)", ev, fix.TurnID)
				}
				live = ev.Snapshots
			}
		}
		assertRoots(t, "live event", live, ws1, ws2)

		// Loaded: the same ids on the user message whose id is the turn id.
		var load protocol.SessionLoadResult
		if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: sid}, &load); err != nil {
			t.Fatal(err)
		}
		var users []protocol.Message
		for _, m := range load.Messages {
			if m.Role == "user" {
				users = append(users, m)
			}
		}
		if len(users) != 2 || users[0].TurnID != chat.TurnID || users[1].TurnID != fix.TurnID || users[1].ID != fix.TurnID {
			t.Fatalf("loaded user messages do not name their turns: %+v", users)
		}
		if len(users[0].Snapshots) != 0 {
			t.Fatalf("the chat-only turn carries snapshots: %+v", users[0].Snapshots)
		}
		assertRoots(t, "session/load", users[1].Snapshots, ws1, ws2)
		for i := range live {
			if users[1].Snapshots[i] != live[i] {
				t.Fatalf("load %+v differs from live %+v", users[1].Snapshots, live)
			}
		}

		// Every snapshot records session, turn id, reason and root.
		if err := ed.Call("snapshot/list", protocol.SnapshotListParams{SessionID: sid}, &list); err != nil {
			t.Fatal(err)
		}
		reasons := map[string]int{}
		for _, s := range list.Snapshots {
			if s.TurnID != fix.TurnID || s.SessionID != sid || (s.Root != ws1 && s.Root != ws2) {
				t.Fatalf("snapshot without its turn, session or root: %+v", s)
			}
			reasons[s.Reason]++
		}
		if reasons[protocol.SnapshotBeforeTurn] != 2 || reasons[protocol.SnapshotAfterTurn] != 2 {
			t.Fatalf("want a before and an after snapshot per root, got %v", reasons)
		}

		// Dry run: says what would change, changes nothing.
		var dry protocol.SnapshotRestoreTurnResult
		if err := ed.Call("snapshot/restoreTurn", protocol.SnapshotRestoreTurnParams{SessionID: sid, TurnID: fix.TurnID, DryRun: true}, &dry); err != nil {
			t.Fatal(err)
		}
		if got := changesByRoot(dry.Roots); got[ws1] != "a.txt modified" || got[ws2] != "made.txt deleted" {
			t.Fatalf("dry run: %v", got)
		}
		if dry.Notice != "" || dry.Roots[0].UndoID != "" {
			t.Fatalf("a dry run must not restore: %+v", dry)
		}
		if a, _ := os.ReadFile(filepath.Join(ws1, "a.txt")); string(a) != "a2\n" {
			t.Fatalf("the dry run changed a.txt: %q", a)
		}

		var res protocol.SnapshotRestoreTurnResult
		if err := ed.Call("snapshot/restoreTurn", protocol.SnapshotRestoreTurnParams{SessionID: sid, TurnID: fix.TurnID}, &res); err != nil {
			t.Fatal(err)
		}
		if a, _ := os.ReadFile(filepath.Join(ws1, "a.txt")); string(a) != "a1\n" {
			t.Fatalf("a.txt not restored: %q", a)
		}
		if _, err := os.Stat(made); !os.IsNotExist(err) {
			t.Fatalf("made.txt, created by the turn's shell command, survived: %v", err)
		}
		if b, _ := os.ReadFile(filepath.Join(ws2, "b.txt")); string(b) != "b1\n" {
			t.Fatalf("b.txt changed: %q", b)
		}
		for _, r := range res.Roots {
			if r.UndoID == "" {
				t.Fatalf("root %s has no safety snapshot", r.Root)
			}
		}
		want := "Restored 2 files in 2 folders to before “Fix the bug”"
		if res.Notice != want {
			t.Fatalf("notice %q, want %q", res.Notice, want)
		}

		// The user's notice is in the chat; the model's note is not.
		if err := ed.Call("session/load", protocol.SessionLoadParams{SessionID: sid}, &load); err != nil {
			t.Fatal(err)
		}
		var notices []string
		for _, m := range load.Messages {
			for _, p := range m.Parts {
				if p.Type == "notice" {
					notices = append(notices, p.Text)
				}
			}
		}
		if len(notices) != 1 || notices[0] != want {
			t.Fatalf("chat notices %q, want exactly %q", notices, want)
		}
		// The model learns it in its own words on its next request.
		next := send(t, ed, sid, "What happened?")
		ed.AwaitTurnFinished(sid, next.TurnID, 20*time.Second)
		reqs := model.Requests()
		last := reqs[len(reqs)-1]
		var note string
		for _, m := range last.Messages {
			if strings.Contains(m.Content, "rolled the workspace back") {
				note = m.Content
			}
			if strings.Contains(m.Content, want) {
				t.Fatalf("the user's notice reached the model: %q", m.Content)
			}
		}
		if !strings.Contains(note, `"Fix the bug"`) || !strings.Contains(note, "a.txt modified") || !strings.Contains(note, "made.txt deleted") {
			t.Fatalf("the model's note does not say what changed: %q", note)
		}

		// Undo: each root's safety snapshot brings the turn's result back.
		for _, r := range res.Roots {
			if err := ed.Call("snapshot/restore", protocol.SnapshotRestoreParams{ID: r.UndoID}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if b, err := os.ReadFile(made); err != nil || string(b) != "b1\n" {
			t.Fatalf("undo did not bring made.txt back: %v %q", err, b)
		}
	})
}

// TestRestoreTurnBadInput: a turn without a before-snapshot, an unknown
// turn or session, and missing ids get clear errors and change nothing.
func TestRestoreTurnBadInput(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a1\n"), 0o644)
	model := scripted.Start(t, scripted.Reply{Text: "hi"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Workspace: ws, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	r := send(t, ed, "", "just chat")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 10*time.Second)
	for _, tc := range []struct {
		name string
		p    protocol.SnapshotRestoreTurnParams
		code int64
		msg  string
	}{
		{"chat-only turn", protocol.SnapshotRestoreTurnParams{SessionID: r.SessionID, TurnID: r.TurnID}, protocol.CodeInvalidParams, "No snapshot was taken before this turn"},
		{"unknown turn", protocol.SnapshotRestoreTurnParams{SessionID: r.SessionID, TurnID: "nope"}, protocol.CodeInvalidParams, "No snapshot was taken before this turn"},
		{"unknown session", protocol.SnapshotRestoreTurnParams{SessionID: "nope", TurnID: r.TurnID, DryRun: true}, protocol.CodeInvalidParams, "No snapshot was taken before this turn"},
		{"missing ids", protocol.SnapshotRestoreTurnParams{}, protocol.CodeInvalidParams, "sessionId and turnId are required"},
	} {
		err := ed.Call("snapshot/restoreTurn", tc.p, nil)
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != tc.code || !strings.Contains(rpcErr.Message, tc.msg) {
			t.Errorf("%s: got %v, want code %d with %q", tc.name, err, tc.code, tc.msg)
		}
	}
	if a, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(a) != "a1\n" {
		t.Fatalf("a.txt changed: %q", a)
	}
}

func assertRoots(t *testing.T, where string, got []protocol.TurnSnapshot, roots ...string) {
	t.Helper()
	if len(got) != len(roots) {
		t.Fatalf("%s: want one snapshot per root %v, got %+v", where, roots, got)
	}
	seen := map[string]bool{}
	for _, s := range got {
		if s.ID == "" {
			t.Fatalf("%s: empty id in %+v", where, got)
		}
		seen[s.Root] = true
	}
	for _, r := range roots {
		if !seen[r] {
			t.Fatalf("%s: no snapshot for %s in %+v", where, r, got)
		}
	}
}

func changesByRoot(roots []protocol.RootRestore) map[string]string {
	out := map[string]string{}
	for _, r := range roots {
		var parts []string
		for _, c := range r.Changes {
			parts = append(parts, c.Path+" "+c.Kind)
		}
		out[r.Root] = strings.Join(parts, ", ")
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
