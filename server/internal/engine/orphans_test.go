package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/recovery"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/storage/store"
	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

// window is a second editor window's sidecar: an engine on the same
// workspace and storage as r's, open at the same time.
type window struct {
	e        *Engine
	confirms chan approval.Confirm
}

func (r *restartable) openWindow(legacy ...string) *window {
	r.t.Helper()
	w := &window{confirms: make(chan approval.Confirm, 8)}
	e, err := New(Options{Roots: []string{r.ws}, StateDir: r.state, LegacyStateDirs: legacy, Settings: r.settings,
		APIKeys: map[string]string{"": "sk-test"}, HostInfo: HostInfo{OS: "linux", Shell: "bash"},
		OnConfirm: func(c approval.Confirm) { w.confirms <- c }})
	if err != nil {
		r.t.Fatal(err)
	}
	w.e = e
	r.t.Cleanup(func() { e.Close() })
	return w
}

func (w *window) confirm(t *testing.T) approval.Confirm {
	t.Helper()
	select {
	case c := <-w.confirms:
		return c
	case <-time.After(20 * time.Second):
		t.Fatal("no confirmation asked in the second window")
		return approval.Confirm{}
	}
}

func editReplies() []scripted.Reply {
	return []scripted.Reply{
		{ToolCalls: []scripted.ToolCall{{ID: "r1", Name: "read_file", Arguments: `{"filePath":"a.txt"}`}}},
		{ToolCalls: []scripted.ToolCall{{ID: "e1", Name: "edit", Arguments: `{"filePath":"a.txt","startLine":1,"endLine":1,"newContent":"ONE"}`}}},
		{Text: "all done"},
	}
}

func newTwoWindows(t *testing.T, more ...scripted.Reply) *restartable {
	r := newRestartable(t, nil, append(editReplies(), more...)...)
	if err := os.WriteFile(filepath.Join(r.ws, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTwoWindowsShareOneHistory: a second window sees the first one's chat
// at once, leaves the turn the first one runs alone (its question stays
// the first window's, nothing is finalised), cannot start a second turn
// in that chat meanwhile, and continues the chat once the turn ended; the
// first window then sees the second one's turn.
func TestTwoWindowsShareOneHistory(t *testing.T) {
	r := newTwoWindows(t, scripted.Reply{Text: "second window answers"})
	a := r.open()
	ctx := context.Background()
	sid, _, err := a.Send(ctx, SendParams{Text: "shout"})
	if err != nil {
		t.Fatal(err)
	}
	asked := r.confirm()

	b := r.openWindow()
	list, err := b.e.Sessions.List(ctx, 0)
	if err != nil || len(list) != 1 || list[0].ID != sid {
		t.Fatalf("the second window lists %+v, %v", list, err)
	}
	l, err := b.e.Sessions.Load(ctx, sid, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Pending) != 0 || l.Interrupted || l.Page.Messages[len(l.Page.Messages)-1].Status != store.StatusPending {
		t.Fatalf("the second window touched the first one's run: pending %+v, interrupted %v", l.Pending, l.Interrupted)
	}
	if _, _, err := b.e.Send(ctx, SendParams{SessionID: sid, Text: "me too"}); !errors.Is(err, ErrRunningElsewhere) {
		t.Fatalf("a turn in a chat another window runs: %v; want ErrRunningElsewhere", err)
	}
	select {
	case c := <-b.confirms:
		t.Fatalf("the second window asked the first one's question: %+v", c)
	default:
	}

	if err := a.Broker.Resolve(asked.ID, approval.Answer{Accept: true}); err != nil {
		t.Fatalf("the first window can no longer answer its question: %v", err)
	}
	if st := a.Wait(sid); st != agent.StatusDone {
		t.Fatalf("the first window's turn %s", st)
	}
	if _, _, err := b.e.Send(ctx, SendParams{SessionID: sid, Text: "and now?"}); err != nil {
		t.Fatal(err)
	}
	if st := b.e.Wait(sid); st != agent.StatusDone {
		t.Fatalf("the second window's turn %s", st)
	}
	l, _ = a.Sessions.Load(ctx, sid, 0, 0)
	last := l.Page.Messages[len(l.Page.Messages)-1]
	if len(l.Page.Messages) != 4 || last.Parts[0].Text != "second window answers" {
		t.Fatalf("the first window does not see the second one's turn: %+v", l.Page.Messages)
	}
}

// TestClosedWindowsQuestionSettledOnOpen: a window closes (for good) while
// its turn waits on a question; the other window, already running, opens
// that chat: the turn is cancelled with a notice in the transcript, the
// question is closed, "Continue" is offered and the chat takes new turns.
func TestClosedWindowsQuestionSettledOnOpen(t *testing.T) {
	grace := recovery.ReloadGrace
	recovery.ReloadGrace = 0 // the other window started long before this one closed
	t.Cleanup(func() { recovery.ReloadGrace = grace })
	r := newTwoWindows(t, scripted.Reply{Text: "continued"})
	a := r.open()
	ctx := context.Background()
	sid, _, err := a.Send(ctx, SendParams{Text: "shout"})
	if err != nil {
		t.Fatal(err)
	}
	asked := r.confirm()
	b := r.openWindow()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	l, err := b.e.Sessions.Load(ctx, sid, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	last := l.Page.Messages[len(l.Page.Messages)-1]
	notice := last.Parts[len(last.Parts)-1]
	if last.Status != store.StatusCancelled || notice.Notice == nil || !strings.Contains(notice.Notice.Text, "window that ran this turn was closed") ||
		!strings.Contains(notice.Notice.Text, "question was cancelled") {
		t.Fatalf("the closed window's turn after opening the chat: status %s, parts %+v", last.Status, last.Parts)
	}
	if !l.Interrupted || len(l.Pending) != 0 {
		t.Fatalf("interrupted %v, pending %+v", l.Interrupted, l.Pending)
	}
	if open, _ := b.e.Store.PendingConfirmations(ctx, sid); len(open) != 0 {
		t.Fatalf("the question is still open: %+v", open)
	}
	if c, _ := b.e.Store.OpenConfirmations(ctx); len(c) != 0 {
		t.Fatalf("open questions left: %+v (asked %s)", c, asked.ID)
	}
	if b, _ := os.ReadFile(filepath.Join(r.ws, "a.txt")); string(b) != "one\n" {
		t.Fatalf("the cancelled edit was applied: %q", b)
	}
	if _, _, err := b.e.Send(ctx, SendParams{SessionID: sid, Text: "continue"}); err != nil {
		t.Fatal(err)
	}
	if st := b.e.Wait(sid); st != agent.StatusDone {
		t.Fatalf("the continued turn %s", st)
	}
}

// TestReloadOverlapReoffersQuestion: a reload starts the window's new
// sidecar while the old one is still stopping; once it has stopped, the
// new one asks the parked question again and answering it resumes the run.
func TestReloadOverlapReoffersQuestion(t *testing.T) {
	r := newTwoWindows(t)
	a := r.open()
	ctx := context.Background()
	sid, turnID, err := a.Send(ctx, SendParams{Text: "shout"})
	if err != nil {
		t.Fatal(err)
	}
	asked := r.confirm()
	b := r.openWindow()
	select {
	case c := <-b.confirms:
		t.Fatalf("the question was taken while its window still ran: %+v", c)
	default:
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	again := b.confirm(t)
	if again.ID != asked.ID || again.TurnID != turnID {
		t.Fatalf("asked again %+v, first %+v", again, asked)
	}
	if err := b.e.Broker.Resolve(again.ID, approval.Answer{Accept: true}); err != nil {
		t.Fatal(err)
	}
	if st := b.e.Wait(sid); st != agent.StatusDone {
		t.Fatalf("resumed turn %s", st)
	}
	if got, _ := os.ReadFile(filepath.Join(r.ws, "a.txt")); string(got) != "ONE\n" {
		t.Fatalf("file %q", got)
	}
}

// TestLegacySlotMergedOnce: the sessions and snapshots an old per-window
// storage folder kept join the workspace's storage at the first start; a
// chat deleted afterwards does not come back at the next.
func TestLegacySlotMergedOnce(t *testing.T) {
	r := newRestartable(t, config.Values{"snapshots.enabled": true}, scripted.Reply{Text: "from the old slot"})
	ctx := context.Background()
	oldState := r.state
	old := r.open()
	sid, _, err := old.Send(ctx, SendParams{Text: "hello old slot"})
	if err != nil {
		t.Fatal(err)
	}
	if st := old.Wait(sid); st != agent.StatusDone {
		t.Fatalf("turn %s", st)
	}
	snaps, err := old.Rollback.Take(ctx, snapshot.Meta{SessionID: sid, Reason: "before turn"})
	if err != nil || len(snaps) != 1 {
		t.Fatalf("snapshot in the old slot: %+v, %v", snaps, err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	r.state = t.TempDir() // the workspace's folder in global storage
	w := r.openWindow(oldState, filepath.Join(t.TempDir(), "never-used"))
	list, _ := w.e.Sessions.List(ctx, 0)
	if len(list) != 1 || list[0].ID != sid {
		t.Fatalf("after the merge: %+v", list)
	}
	l, _ := w.e.Sessions.Load(ctx, sid, 0, 0)
	if len(l.Page.Messages) != 2 || l.Page.Messages[1].Parts[0].Text != "from the old slot" {
		t.Fatalf("merged transcript: %+v", l.Page.Messages)
	}
	got, _, err := w.e.Rollback.Snapshots(sid)
	if err != nil || len(got) != 1 || got[0].ID != snaps[0].ID {
		t.Fatalf("merged snapshots: %+v, %v", got, err)
	}
	if err := w.e.Sessions.Delete(ctx, sid); err != nil {
		t.Fatal(err)
	}
	w.e.Close()
	again := r.openWindow(oldState)
	if list, _ := again.e.Sessions.List(ctx, 0); len(list) != 0 {
		t.Fatalf("a deleted chat came back from the old slot: %+v", list)
	}
}
