package integration

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

func gitInit(t *testing.T, dir string) string {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	out, _ := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	return strings.TrimSpace(string(out))
}

// TestSnapshotsAcrossTurnsAndRestore: two auto-approved turns edit two
// files and create two (one of each through the shell, which VS Code's own
// checkpoints miss); restoring the snapshot taken before turn 1 brings the
// edited files back and removes the created ones although the user's git
// does not track them (GoVibe saw them made), keeps a file the user created
// after the last snapshot, and never touches the user's git.
func TestSnapshotsAcrossTurnsAndRestore(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ws := t.TempDir()
		os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a1\n"), 0o644)
		os.WriteFile(filepath.Join(ws, "b.txt"), []byte("b1\n"), 0o644)
		os.WriteFile(filepath.Join(ws, "b2.src"), []byte("b2\n"), 0o644)
		os.WriteFile(filepath.Join(ws, ".gitignore"), []byte("*.log\n"), 0o644)
		head := gitInit(t, ws)
		model := scripted.Start(t,
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("r1", "read_file", `{"filePath":"a.txt"}`)}},
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("e1", "edit", `{"filePath":"a.txt","startLine":1,"endLine":1,"newContent":"a2"}`)}},
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("w1", "write_file", `{"filePath":"tool-made.txt","content":"by write_file\n"}`)}},
			scripted.Reply{Text: "turn 1 done"},
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("s1", "run_shell_command", `{"command":"cp b2.src b.txt && mkdir -p gen && cp b2.src gen/shell-made.txt"}`)}},
			scripted.Reply{Text: "turn 2 done"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, Settings: map[string]any{
			"apiBaseUrl": model.URL(), "model": "m", "autoApprove.edits": true, "confirmShellCommand": false}})
		r1 := send(t, ed, "", "edit a")
		ed.AwaitTurnFinished(r1.SessionID, r1.TurnID, 20*time.Second)
		r2 := send(t, ed, r1.SessionID, "edit b")
		ed.AwaitTurnFinished(r1.SessionID, r2.TurnID, 20*time.Second)
		if b, _ := os.ReadFile(filepath.Join(ws, "b.txt")); string(b) != "b2\n" {
			t.Fatalf("the shell command did not run: %q", b)
		}
		// The user creates files meanwhile: one plain, one ignored.
		os.WriteFile(filepath.Join(ws, "mine.txt"), []byte("keep me\n"), 0o644)
		os.WriteFile(filepath.Join(ws, "debug.log"), []byte("ignored\n"), 0o644)

		var list protocol.SnapshotListResult
		if err := ed.Call("snapshot/list", protocol.SnapshotListParams{SessionID: r1.SessionID}, &list); err != nil {
			t.Fatal(err)
		}
		var before1 *protocol.SnapshotInfo
		for i := range list.Snapshots {
			s := &list.Snapshots[i]
			if s.Turn == 1 && s.Reason == "before turn" {
				before1 = s
			}
		}
		if before1 == nil || before1.Message != "edit a" {
			t.Fatalf("no 'before turn 1' snapshot in %+v", list.Snapshots)
		}
		if len(ed.Notifications("snapshot/created")) < 3 {
			t.Fatalf("want snapshot/created for before turn 1, after turn 1 and before/after turn 2; got %d", len(ed.Notifications("snapshot/created")))
		}
		var diff protocol.SnapshotDiffResult
		if err := ed.Call("snapshot/diff", protocol.SnapshotDiffParams{ID: before1.ID}, &diff); err != nil {
			t.Fatal(err)
		}
		kinds := map[string]string{}
		for _, c := range diff.Changes {
			kinds[c.Path] = c.Kind
		}
		// mine.txt is in no snapshot: the user's, kept (not listed). The created files
		// are untracked by the user's git, yet GoVibe saw them made.
		if kinds["a.txt"] != "modified" || kinds["b.txt"] != "modified" || kinds["mine.txt"] != "" ||
			kinds["tool-made.txt"] != "deleted" || kinds["gen/shell-made.txt"] != "deleted" {
			t.Fatalf("diff %+v", diff.Changes)
		}
		var res protocol.SnapshotRestoreResult
		if err := ed.Call("snapshot/restore", protocol.SnapshotRestoreParams{ID: before1.ID}, &res); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(filepath.Join(ws, "a.txt"))
		b, _ := os.ReadFile(filepath.Join(ws, "b.txt"))
		if string(a) != "a1\n" || string(b) != "b1\n" {
			t.Fatalf("after restore a=%q b=%q", a, b)
		}
		if _, err := os.Stat(filepath.Join(ws, "debug.log")); err != nil {
			t.Fatal("an ignored file was deleted by restore")
		}
		if m, _ := os.ReadFile(filepath.Join(ws, "mine.txt")); string(m) != "keep me\n" {
			t.Fatal("a file the user created after the last snapshot was deleted by restore")
		}
		for _, p := range []string{"tool-made.txt", "gen/shell-made.txt", "gen"} {
			if _, err := os.Stat(filepath.Join(ws, p)); !os.IsNotExist(err) {
				t.Fatalf("%s, created by the agent during the undone turns, survived the restore", p)
			}
		}
		if res.UndoID == "" {
			t.Fatal("restore must snapshot first so it can be undone")
		}
		// Undo the restore: back to the state after turn 2, mine.txt included.
		if err := ed.Call("snapshot/restore", protocol.SnapshotRestoreParams{ID: res.UndoID}, nil); err != nil {
			t.Fatal(err)
		}
		if m, _ := os.ReadFile(filepath.Join(ws, "mine.txt")); string(m) != "keep me\n" {
			t.Fatalf("undo lost mine.txt: %q", m)
		}
		if a, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(a) != "a2\n" {
			t.Fatalf("undo: a=%q", a)
		}
		if m, _ := os.ReadFile(filepath.Join(ws, "gen/shell-made.txt")); string(m) != "b2\n" {
			t.Fatalf("undo did not bring back the shell-made file: %q", m)
		}
		// The user's git is untouched: same HEAD, no new refs, clean index for tracked files.
		out, _ := exec.Command("git", "-C", ws, "rev-parse", "HEAD").Output()
		if strings.TrimSpace(string(out)) != head {
			t.Fatal("the user's HEAD moved")
		}
		refs, _ := exec.Command("git", "-C", ws, "for-each-ref").Output()
		if strings.Count(string(refs), "\n") != 1 {
			t.Fatalf("new refs in the user's repo:\n%s", refs)
		}
		// The model is told about the restore.
		var load protocol.SessionLoadResult
		ed.Call("session/load", protocol.SessionLoadParams{SessionID: r1.SessionID}, &load)
		var told bool
		var notices []string
		for _, m := range load.Messages {
			for _, p := range m.Parts {
				if p.Type == "notice" {
					notices = append(notices, p.Text)
				}
				told = told || (strings.HasPrefix(p.Text, "Restored ") && strings.Contains(p.Text, "to before “edit a”"))
			}
		}
		if !told {
			t.Fatalf("the restore is not reported in the chat: %q", notices)
		}
	})
}

func TestSnapshotCLIListJSON(t *testing.T) {
	ws, state := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("x\n"), 0o644)
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{call("w1", "write_file", `{"filePath":"n.txt","content":"new\n"}`)}},
		scripted.Reply{Text: "ok"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Workspace: ws, StateDir: state, Settings: map[string]any{
		"apiBaseUrl": model.URL(), "model": "m", "autoApprove.edits": true}})
	r := send(t, ed, "", "make n.txt\nsecond line")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 10*time.Second)
	ed.Call("shutdown", nil, nil)

	out, err := exec.Command(binary, "snapshot", "list", "--workspace", ws, "--state-dir", state, "--json").Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var rows []map[string]any
	if err := json.Unmarshal(out, &rows); err != nil || len(rows) != 2 {
		t.Fatalf("rows %v (%v)\n%s", rows, err, out)
	}
	for _, k := range []string{"id", "time", "sessionId", "turn", "message", "changedFiles"} {
		if _, ok := rows[0][k]; !ok {
			t.Fatalf("row lacks %s: %v", k, rows[0])
		}
	}
	if rows[0]["message"] != "make n.txt" || rows[0]["sessionId"] != r.SessionID {
		t.Fatalf("newest row %v", rows[0])
	}
	// Restore from the CLI.
	before := rows[len(rows)-1]["id"].(string)
	if out, err := exec.Command(binary, "snapshot", "restore", before, "--workspace", ws, "--state-dir", state).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(ws, "n.txt")); !os.IsNotExist(err) {
		t.Fatal("restore did not remove the file the agent created")
	}
	if out, err := exec.Command(binary, "snapshot", "restore", "nope", "--workspace", ws, "--state-dir", state).CombinedOutput(); err == nil || !strings.Contains(string(out), "no snapshot") {
		t.Fatalf("unknown id: %v %s", err, out)
	}
}
