package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// Reconcile mode over the wire: /reconcile drafts a manifest that
// mode/get shows unapproved; reconcile/approve (with the user's edit)
// starts the loop as a turn whose mode events carry the run; the run
// ends Ready and mode/get says so. A bad approval is a clear error.
func TestReconcileOverTheWire(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		ws := t.TempDir()
		manifest := `{"apiVersion":"vibe/v1","kind":"VibeManifest","metadata":{"name":"greeter","approved":false},"spec":{"intent":"greet","constraints":{},"functionalSpec":{},"testCommand":"sh run_tests.sh"},"status":{"phase":"Pending","currentLoop":0,"diff":0}}`
		w := func(id, path, content string) scripted.Reply {
			b, _ := json.Marshal(map[string]string{"filePath": path, "content": content})
			return scripted.Reply{ToolCalls: []scripted.ToolCall{call(id, "write_file", string(b))}}
		}
		model := scripted.Start(t,
			w("m1", ".govibe/manifests/greeter.json", manifest), scripted.Reply{Text: "drafted"},
			w("s1", "tests/world.want", "world"), scripted.Reply{Text: "tests written"},
			scripted.Reply{ToolCalls: []scripted.ToolCall{call("c0", "read_file", `{"filePath":"app.txt"}`)}},
			w("c1", "app.txt", "hello\nworld\n"), scripted.Reply{Text: "implemented"})
		// Before the specifier there are no tests: "0 passed, 0 failed",
		// which is nothing failing, so its one test is a new failure.
		if err := os.WriteFile(filepath.Join(ws, "run_tests.sh"), []byte(`p=0; f=0
for t in tests/*.want; do [ -e "$t" ] || continue; if grep -qxF "$(cat "$t")" app.txt; then p=$((p+1)); else f=$((f+1)); fi; done
echo "$p passed, $f failed"
`), 0o644); err != nil {
			t.Fatal(err)
		}
		_ = os.WriteFile(filepath.Join(ws, "app.txt"), []byte("hello\n"), 0o644)
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin, Workspace: ws, APIKey: "sk-test-key-0123456789",
			Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m", "autoApprove.edits": true}})
		var s protocol.SessionInfo
		if err := ed.Call("session/create", protocol.SessionCreateParams{}, &s); err != nil {
			t.Fatal(err)
		}
		var bad protocol.ChatSendResult
		if err := ed.Call("reconcile/approve", protocol.ReconcileApproveParams{SessionID: s.ID}, &bad); err == nil || !strings.Contains(err.Error(), "no drafted manifest") {
			t.Fatalf("approve without a manifest: %v", err)
		}
		r := send(t, ed, s.ID, "/reconcile a greeter")
		// .govibe/ is protected: the drafted manifest is shown and asked for.
		c := awaitConfirm(t, ed, 1)
		if c.RelPath != ".govibe/manifests/greeter.json" {
			t.Fatalf("confirm for %q", c.RelPath)
		}
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept"})
		ed.AwaitTurnFinished(s.ID, r.TurnID, 20*time.Second)
		var st protocol.ModeState
		if err := ed.Call("mode/get", protocol.ModeGetParams{SessionID: s.ID}, &st); err != nil {
			t.Fatal(err)
		}
		if st.Mode != "reconcile" || st.Reconcile == nil || st.Reconcile.Name != "greeter" || st.Reconcile.Approved || st.Reconcile.MaxLoops != 10 {
			t.Fatalf("drafted: %+v %+v", st, st.Reconcile)
		}
		if err := ed.Call("reconcile/approve", protocol.ReconcileApproveParams{SessionID: s.ID, Manifest: "{"}, &bad); err == nil || !strings.Contains(err.Error(), "The manifest cannot be used: manifest is not valid JSON") {
			t.Fatalf("approve a broken edit: %v", err)
		}
		edited := strings.Replace(manifest, `"intent":"greet"`, `"intent":"greet the world"`, 1)
		var run protocol.ChatSendResult
		if err := ed.Call("reconcile/approve", protocol.ReconcileApproveParams{SessionID: s.ID, Manifest: edited}, &run); err != nil {
			t.Fatal(err)
		}
		fin := ed.AwaitTurnFinished(s.ID, run.TurnID, 30*time.Second)
		if fin.Status != "done" {
			t.Fatalf("loop turn %q", fin.Status)
		}
		if err := ed.Call("mode/get", protocol.ModeGetParams{SessionID: s.ID}, &st); err != nil {
			t.Fatal(err)
		}
		rc := st.Reconcile
		if rc == nil || rc.Phase != "Ready" || rc.Intent != "greet the world" || len(rc.Diffs) != 1 || rc.Diffs[0] != 0 || rc.Baseline != 1 || rc.Running {
			t.Fatalf("after the loop: %+v", rc)
		}
		agents := map[string]bool{}
		for _, ev := range ed.Events(s.ID) {
			if ev.Kind == "mode" && ev.Mode != nil && ev.Mode.Reconcile != nil && ev.Mode.Reconcile.Agent != "" {
				agents[ev.Mode.Reconcile.Agent] = true
			}
		}
		if !agents["specifier:1"] || !agents["coder:1"] || !agents["auditor:1"] {
			t.Fatalf("mode events named the agents %v", agents)
		}
		var res protocol.ChatSendResult
		if err := ed.Call("reconcile/resume", protocol.ReconcileParams{SessionID: s.ID}, &res); err == nil || !strings.Contains(err.Error(), "has ended") {
			t.Fatalf("resume after Ready: %v", err)
		}
	})
}
