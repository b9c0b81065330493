package integration

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// browserCall asks for a browser run. The settings point
// govibe.browser.executablePath at nothing, so a run that goes ahead ends
// at once with "not available": that result proves the tool ran, without
// a browser on the test machine.
func browserCall(id string) scripted.Reply {
	return scripted.Reply{ToolCalls: []scripted.ToolCall{call(id, "browser_sub_agent", `{"task":"Read the heading","url":"https://example.com/"}`)}}
}

// TestBrowserSubAgentIsConfirmed: browser_sub_agent asks first, like
// web_fetch, on a tool card naming the task and URL. Deny tells the model
// (with the user's reason) and runs nothing; "Always allow" writes the
// browser_sub_agent rule to the user's allow-rules file, the run goes
// ahead, and the next run is not asked about.
func TestBrowserSubAgentIsConfirmed(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	model := scripted.Start(t,
		browserCall("b1"), scripted.Reply{Text: "no browser then"},
		browserCall("b2"), scripted.Reply{Text: "tried"},
		browserCall("b3"), scripted.Reply{Text: "tried again"})
	ed := fakeeditor.Connect(t, fakeeditor.Options{Binary: binary, Workspace: t.TempDir(),
		Settings: map[string]any{"apiBaseUrl": model.URL(), "model": "m", "browser.executablePath": "/nonexistent/chromium"}})

	r := send(t, ed, "", "check the page")
	c := awaitConfirm(t, ed, 1)
	if c.Kind != "tool" || c.Command != "browser_sub_agent" || !strings.Contains(c.Question, "Read the heading") ||
		!strings.Contains(c.Question, "https://example.com/") || !reflect.DeepEqual(c.AllowRules, []string{"browser_sub_agent"}) {
		t.Fatalf("the browser run asked %+v", c)
	}
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c.ID, Decision: "reject", Reason: "not on my machine"})
	ed.AwaitTurnFinished(r.SessionID, r.TurnID, 20*time.Second)
	if got := toolResultFor(t, model, "b1"); !strings.Contains(got, "the user declined the browser run") || !strings.Contains(got, "not on my machine") {
		t.Fatalf("the model got %q", got)
	}

	r2 := send(t, ed, r.SessionID, "try again")
	c2 := awaitConfirm(t, ed, 2)
	resolve(t, ed, protocol.ConfirmResolveParams{ID: c2.ID, Decision: "accept", AlwaysAllow: true})
	ed.AwaitTurnFinished(r2.SessionID, r2.TurnID, 20*time.Second)
	if got := toolResultFor(t, model, "b2"); !strings.Contains(got, "not available") {
		t.Fatalf("the approved run did not go ahead: %q", got)
	}
	b, err := os.ReadFile(filepath.Join(xdg, "govibe", "allow-rules.json"))
	if err != nil || !strings.Contains(string(b), `"browser_sub_agent"`) {
		t.Fatalf("allow-rules file: %s %v", b, err)
	}

	r3 := send(t, ed, r.SessionID, "once more")
	ed.AwaitTurnFinished(r3.SessionID, r3.TurnID, 20*time.Second)
	if got := toolResultFor(t, model, "b3"); !strings.Contains(got, "not available") || confirms(ed) != 2 {
		t.Fatalf("the always-allowed run: %q (%d questions)", got, confirms(ed))
	}
	expectValid(t, model)
}

// TestBrowserConfirmationResumedAfterRestart: the sidecar stops while the
// browser run waits for the user; the next one shows the same card, and
// the answer given then decides: allowed, the run goes ahead (and ends
// with "not available" here); declined, nothing runs. No call is left
// without its result.
func TestBrowserConfirmationResumedAfterRestart(t *testing.T) {
	for _, c := range []struct {
		decision, want string
	}{{"accept", "not available"}, {"reject", "the user declined the browser run"}} {
		t.Run(c.decision, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			call := scripted.ToolCall{ID: "b1", Name: "browser_sub_agent", Arguments: `{"task":"Read the heading","url":"https://example.com/"}`}
			p := parkThenStop(t, stoppers[0], map[string]string{"a.txt": aText}, call, scripted.Reply{Text: "done"})
			p.settings["browser.executablePath"] = "/nonexistent/chromium"
			ed, load := p.restart(t)
			got := p.expectRestored(t, ed, load)
			if got.Command != "browser_sub_agent" || !strings.Contains(got.Question, "Read the heading") {
				t.Fatalf("restored card %+v", got)
			}
			resolve(t, ed, protocol.ConfirmResolveParams{ID: got.ID, Decision: c.decision})
			if fin := ed.AwaitTurnFinished(p.sid, p.turn, 20*time.Second); fin.Status != "done" {
				t.Fatalf("resumed turn ended %s\n%s", fin.Status, ed.Stderr())
			}
			if res := toolResultFor(t, p.model, "b1"); !strings.Contains(res, c.want) {
				t.Fatalf("the model got %q, want %q", res, c.want)
			}
			if n := confirms(ed); n != 1 {
				t.Fatalf("%d questions after the restart; the restored answer decides", n)
			}
			expectValid(t, p.model)
			expectSettled(t, ed, p.sid)
		})
	}
}
