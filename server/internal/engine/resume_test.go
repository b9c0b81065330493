package engine

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// restartable opens engines one after another on the same workspace and
// storage, as successive sidecar processes would.
type restartable struct {
	t         *testing.T
	ws, state string
	model     *scripted.Server
	settings  config.Values
	confirms  chan approval.Confirm
	closed    chan string
	e         *Engine
}

func newRestartable(t *testing.T, settings config.Values, replies ...scripted.Reply) *restartable {
	r := &restartable{t: t, ws: t.TempDir(), state: t.TempDir(), model: scripted.Start(t, replies...)}
	r.settings = config.Values{"apiBaseUrl": r.model.URL(), "model": "m", "snapshots.enabled": false, "confirmChanges": true}
	for k, v := range settings {
		r.settings[k] = v
	}
	return r
}

func (r *restartable) open() *Engine {
	r.t.Helper()
	r.confirms, r.closed = make(chan approval.Confirm, 8), make(chan string, 8)
	e, err := New(Options{Roots: []string{r.ws}, StateDir: r.state, Settings: r.settings, APIKeys: map[string]string{"": "sk-test"},
		HostInfo:        HostInfo{OS: "linux", Shell: "bash"},
		OnConfirm:       func(c approval.Confirm) { r.confirms <- c },
		OnConfirmClosed: func(id, reason string) { r.closed <- id + ":" + reason }})
	if err != nil {
		r.t.Fatal(err)
	}
	r.e = e
	r.t.Cleanup(func() { e.Close() })
	return e
}

func (r *restartable) confirm() approval.Confirm {
	r.t.Helper()
	select {
	case c := <-r.confirms:
		return c
	case <-time.After(20 * time.Second):
		r.t.Fatal("no confirmation asked")
		return approval.Confirm{}
	}
}

// TestResumeAfterCleanClose: closing the engine while a turn waits on an
// edit leaves the turn resumable (nothing finalised, the question still
// open), and the next engine resumes it with the answer.
func TestResumeAfterCleanClose(t *testing.T) {
	r := newRestartable(t, nil,
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "r1", Name: "read_file", Arguments: `{"filePath":"a.txt"}`}}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{
			{ID: "e1", Name: "edit", Arguments: `{"filePath":"a.txt","startLine":1,"endLine":1,"newContent":"ONE"}`},
			{ID: "l1", Name: "list_files", Arguments: `{}`}}},
		scripted.Reply{Text: "all done"})
	if err := os.WriteFile(filepath.Join(r.ws, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := r.open()
	ctx := context.Background()
	sid, turnID, err := e.Send(ctx, SendParams{Text: "shout"})
	if err != nil {
		t.Fatal(err)
	}
	asked := r.confirm()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-r.closed:
		t.Fatalf("closing the engine closed the question %s", c)
	default:
	}

	e = r.open()
	restored := r.confirm()
	if restored.ToolCallID != "e1" || restored.TurnID != turnID || restored.Proposed != "ONE\n" || restored.ID != asked.ID {
		t.Fatalf("restored %+v, asked %+v", restored, asked)
	}
	l, err := e.Sessions.Load(ctx, sid, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Pending) != 1 || l.Pending[0].ID != restored.ID || l.Interrupted {
		t.Fatalf("load: pending %+v interrupted %v", l.Pending, l.Interrupted)
	}
	// The parked turn is still running as far as a reloaded view is
	// concerned: it shows Stop, not an idle chat.
	if l.RunningTurnID != turnID || !l.Session.Running {
		t.Fatalf("load of a parked turn: running turn %q (want %q), session running %v", l.RunningTurnID, turnID, l.Session.Running)
	}
	if err := e.Broker.Resolve(restored.ID, approval.Answer{Accept: true}); err != nil {
		t.Fatal(err)
	}
	if st := e.Wait(sid); st != agent.StatusDone {
		t.Fatalf("resumed turn %s", st)
	}
	if b, _ := os.ReadFile(filepath.Join(r.ws, "a.txt")); string(b) != "ONE\n" {
		t.Fatalf("file %q", b)
	}
	if v := r.model.Violations(); len(v) > 0 {
		t.Fatal(v)
	}
	// The call after the parked one ran normally, in order, after it.
	track, _ := e.Store.LLMMessages(ctx, sid)
	var order []string
	for _, m := range track {
		if m.Role == llm.RoleTool {
			order = append(order, m.ToolCallID)
		}
	}
	if !reflect.DeepEqual(order, []string{"r1", "e1", "l1"}) {
		t.Fatalf("tool results in the model track: %v", order)
	}
	if strings.HasPrefix(track[len(track)-2].Content, "Error:") {
		t.Fatalf("list_files after the resumed edit failed: %q", track[len(track)-2].Content)
	}
}

// TestServerStopWhileToolRuns: the calls a closing engine leaves unrun
// are reported to the model as stopped by the server, not by the user,
// and the run is not resumable (it was not waiting on the user).
func TestServerStopWhileToolRuns(t *testing.T) {
	r := newRestartable(t, config.Values{"confirmShellCommand": false},
		scripted.Reply{ToolCalls: []scripted.ToolCall{{ID: "s1", Name: "run_shell_command", Arguments: `{"command":"sleep 30"}`},
			{ID: "l1", Name: "list_files", Arguments: `{}`}}},
		scripted.Reply{Text: "ok"})
	e := r.open()
	ctx := context.Background()
	events := make(chan Event, 64)
	e.Bus.Subscribe(func(ev Event) { events <- ev })
	sid, _, err := e.Send(ctx, SendParams{Text: "wait a bit"})
	if err != nil {
		t.Fatal(err)
	}
	for ev := range events {
		if ev.Kind == kinds.ToolCall && ev.Status == "running" {
			break
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e = r.open()
	track, err := e.Store.LLMMessages(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	last := track[len(track)-1]
	if last.Role != llm.RoleTool || last.ToolCallID != "l1" || !strings.Contains(last.Content, "not executed (GoVibe's server stopped)") {
		t.Fatalf("the model is told %q", last.Content)
	}
	l, _ := e.Sessions.Load(ctx, sid, 0, 0)
	if len(l.Pending) != 0 || l.Page.Messages[len(l.Page.Messages)-1].Status != store.StatusCancelled {
		t.Fatalf("pending %+v, last status %s", l.Pending, l.Page.Messages[len(l.Page.Messages)-1].Status)
	}
}
