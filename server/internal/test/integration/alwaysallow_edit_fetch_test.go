package integration

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

func listRules(t *testing.T, ed *fakeeditor.Editor) []string {
	t.Helper()
	var list protocol.PermissionsListResult
	if err := ed.Call("permissions/list", nil, &list); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range list.Rules {
		out = append(out, r.Rule)
	}
	return out
}

// TestAlwaysAllowOnEditCards: an edit card offers "Always allow" for
// exactly its file, anchored to the absolute path (another workspace's
// file of the same name stays asked); accepting with it writes the rule
// to the user's file, the next edit of that file is applied unasked
// while another file still asks, and a protected file offers no rule (it
// always asks). Revoked, the file asks again.
func TestAlwaysAllowOnEditCards(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	ws := t.TempDir()
	write := func(id, path, content string) scripted.Reply {
		return scripted.Reply{ToolCalls: []scripted.ToolCall{call(id, "write_file", fmt.Sprintf(`{"filePath":%q,"content":%q}`, path, content))}}
	}
	readWrite := func(id, path, content string) scripted.Reply {
		return scripted.Reply{ToolCalls: []scripted.ToolCall{call(id+"r", "read_file", fmt.Sprintf(`{"filePath":%q}`, path)),
			call(id, "write_file", fmt.Sprintf(`{"filePath":%q,"content":%q}`, path, content))}}
	}
	model := scripted.Start(t,
		write("w1", "notes.txt", "one\n"), scripted.Reply{Text: "wrote one"},
		readWrite("w2", "notes.txt", "two\n"), scripted.Reply{Text: "wrote two"},
		write("w3", "other.txt", "x\n"), scripted.Reply{Text: "asked for other"},
		write("w4", ".vscode/settings.json", "{}\n"), scripted.Reply{Text: "asked for settings"},
		readWrite("w5", "notes.txt", "three\n"), scripted.Reply{Text: "asked again"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Workspace: ws, Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m"}})
	abs := filepath.Join(ws, "notes.txt")
	want := "Edit(/" + filepath.ToSlash(abs) + ")"

	r := send(t, ed, "", "write one")
	c := awaitConfirm(t, ed, 1)
	if c.Kind != "edit" || !reflect.DeepEqual(c.AllowRules, []string{want}) {
		t.Fatalf("the edit card offers %v (kind %s), want [%s]", c.AllowRules, c.Kind, want)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "accept", AlwaysAllow: true})
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	if got := listRules(t, ed); !reflect.DeepEqual(got, []string{want}) {
		t.Fatalf("rules after Always allow: %v", got)
	}

	r2 := send(t, ed, r.SessionID, "write two")
	if fin := ed.AwaitTurnFinished(r2.SessionID, r2.TurnID, 20*time.Second); fin.Status != "done" {
		t.Fatalf("second turn %s", fin.Status)
	}
	if n := confirms(ed); n != 1 {
		t.Fatalf("the always-allowed file asked again (%d questions)", n)
	}
	if b, _ := os.ReadFile(abs); string(b) != "two\n" {
		t.Fatalf("the always-allowed edit was not applied: %q", b)
	}

	r3 := send(t, ed, r.SessionID, "write other")
	c3 := awaitConfirm(t, ed, 2)
	if c3.RelPath != "other.txt" {
		t.Fatalf("asked about %q", c3.RelPath)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c3.ID, Decision: "reject"})
	ed.AwaitTurnFinished(r3.SessionID, r3.TurnID, 20*time.Second)

	r4 := send(t, ed, r.SessionID, "write settings")
	c4 := awaitConfirm(t, ed, 3)
	if c4.RelPath != ".vscode/settings.json" || len(c4.AllowRules) != 0 {
		t.Fatalf("a protected file's card offers %v (%s): a rule would never apply", c4.AllowRules, c4.RelPath)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c4.ID, Decision: "accept", AlwaysAllow: true})
	ed.AwaitTurnFinished(r4.SessionID, r4.TurnID, 20*time.Second)
	if got := listRules(t, ed); len(got) != 1 {
		t.Fatalf("Always allow on a card without rules wrote %v", got)
	}

	if err := ed.Call("permissions/revoke", protocol.PermissionsRevokeParams{Rule: want}, nil); err != nil {
		t.Fatal(err)
	}
	r5 := send(t, ed, r.SessionID, "write three")
	c5 := awaitConfirm(t, ed, 4)
	if c5.RelPath != "notes.txt" {
		t.Fatalf("after revoke asked about %q", c5.RelPath)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c5.ID, Decision: "reject"})
	ed.AwaitTurnFinished(r5.SessionID, r5.TurnID, 20*time.Second)
	if _, err := os.Stat(filepath.Join(ws, ".govibe", "allow-rules.json")); err == nil {
		t.Fatal("a rule was written into the workspace")
	}
}

// TestWebFetchConfirmedWithAlwaysAllow: web_fetch asks before any
// request leaves (a workspace's allow rule does not count); a refusal
// reaches the model as the user's choice with nothing fetched; "Always
// allow" writes WebFetch(domain:host), after which the host is fetched
// unasked; a workspace deny rule refuses without asking.
func TestWebFetchConfirmedWithAlwaysAllow(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		xdg := t.TempDir()
		t.Setenv("XDG_CONFIG_HOME", xdg)
		var hits atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "release notes: v2 is out")
		}))
		t.Cleanup(srv.Close)
		fetch := func(id, path string) scripted.Reply {
			return scripted.Reply{ToolCalls: []scripted.ToolCall{call(id, "web_fetch", `{"url":"`+srv.URL+path+`","headers":{"X-Trace":"abc"}}`)}}
		}
		model := scripted.Start(t,
			fetch("f1", "/a"), scripted.Reply{Text: "declined"},
			fetch("f2", "/b"), scripted.Reply{Text: "fetched b"},
			fetch("f3", "/c"), scripted.Reply{Text: "fetched c"})
		ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: bin,
			Settings:          map[string]any{"apiBaseUrl": model.URL(), "model": "m", "web.allowHosts": []any{"127.0.0.1"}},
			WorkspaceSettings: map[string]any{"permissions.allow": []any{"WebFetch(domain:127.0.0.1)"}}})

		r := send(t, ed, "", "read the notes")
		c := awaitConfirm(t, ed, 1)
		if c.Kind != protocol.ConfirmFetch || c.URL != srv.URL+"/a" || !reflect.DeepEqual(c.Headers, []string{"X-Trace"}) ||
			!reflect.DeepEqual(c.AllowRules, []string{"WebFetch(domain:127.0.0.1)"}) {
			t.Fatalf("fetch card: %+v", c)
		}
		if hits.Load() != 0 {
			t.Fatal("the page was fetched before the user answered")
		}
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "reject", Reason: "not now"})
		ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
		if got := lastToolResult(t, model); !strings.Contains(got, "declined") || !strings.Contains(got, "not now") || hits.Load() != 0 {
			t.Fatalf("after a refusal the model got %q (%d requests)", got, hits.Load())
		}

		r2 := send(t, ed, r.SessionID, "try again")
		c2 := awaitConfirm(t, ed, 2)
		resolve(t, ed, protocol.ConfirmResolveParams{ID: c2.ID, Decision: "accept", AlwaysAllow: true})
		ed.AwaitTurnFinished(r2.SessionID, r2.TurnID, 20*time.Second)
		if got := lastToolResult(t, model); !strings.Contains(got, "v2 is out") {
			t.Fatalf("the accepted fetch gave %q", got)
		}
		if got := listRules(t, ed); !reflect.DeepEqual(got, []string{"WebFetch(domain:127.0.0.1)"}) {
			t.Fatalf("rules: %v", got)
		}

		r3 := send(t, ed, r.SessionID, "once more")
		if fin := ed.AwaitTurnFinished(r3.SessionID, r3.TurnID, 20*time.Second); fin.Status != "done" {
			t.Fatalf("third turn %s", fin.Status)
		}
		if n := confirms(ed); n != 2 || hits.Load() != 2 {
			t.Fatalf("the always-allowed host asked again or was not fetched (%d questions, %d requests)", n, hits.Load())
		}
	})
}

// TestWebFetchDeniedByWorkspaceRule: a workspace may restrict fetching:
// its deny rule refuses without asking and without a request.
func TestWebFetchDeniedByWorkspaceRule(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	model := scripted.Start(t, scripted.Reply{ToolCalls: []scripted.ToolCall{call("f1", "web_fetch", `{"url":"`+srv.URL+`/x"}`)}}, scripted.Reply{Text: "ok"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{
		Settings:          map[string]any{"apiBaseUrl": model.URL(), "model": "m", "web.allowHosts": []any{"127.0.0.1"}, "permissions.allow": []any{"WebFetch(domain:127.0.0.1)"}},
		WorkspaceSettings: map[string]any{"permissions.deny": []any{"WebFetch(domain:127.0.0.1)"}}})
	r := send(t, ed, "", "fetch")
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	if got := lastToolResult(t, model); !strings.Contains(got, "denied") || confirms(ed) != 0 || hits.Load() != 0 {
		t.Fatalf("deny rule: model got %q, %d questions, %d requests", got, confirms(ed), hits.Load())
	}
}
