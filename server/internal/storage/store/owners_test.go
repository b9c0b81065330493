package store

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/filelock"
)

// turnChild is another sidecar on the same database: it starts a turn,
// asks a question, says so on stdout, and waits until it is killed.
func turnChild() {
	s, err := Open(os.Getenv("GOVIBE_STORE_TEST_PATH"), Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(2)
	}
	ctx := context.Background()
	sess, err := s.CreateSession(ctx, NewSession{Title: "theirs"})
	if err == nil {
		var ids TurnIDs
		if ids, _, err = s.BeginTurn(ctx, sess.ID, "edit calc.go", TurnOptions{}); err == nil {
			if _, err = s.CreateConfirmation(ctx, sess.ID, NewConfirmation{MessageID: ids.AssistantMessageID, ToolCallID: "c1",
				Kind: "edit", Payload: json.RawMessage(`{}`)}); err == nil {
				fmt.Printf("running %s %s %s\n", sess.ID, ids.AssistantMessageID, s.Owner())
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(2)
	}
	select {}
}

// TestTwoProcessesShareOneDatabase: a second process on the same file sees
// the first one's sessions at once, cannot start a turn in the session the
// first one runs, leaves that run alone while the process lives, and can
// take it over (once) when the process is gone.
func TestTwoProcessesShareOneDatabase(t *testing.T) {
	if !filelock.Supported {
		t.Skip("no file locks on this platform")
	}
	path := filepath.Join(t.TempDir(), "sessions.db")
	mine, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=turn", "GOVIBE_STORE_TEST_PATH="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the child did not start its turn: %v", err)
	}
	var sid, msgID, owner string
	if _, err := fmt.Sscanf(line, "running %s %s %s", &sid, &msgID, &owner); err != nil {
		t.Fatalf("child said %q: %v", line, err)
	}
	ctx := context.Background()

	list, err := mine.ListSessions(ctx, ListOptions{})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].ID != sid {
		t.Fatalf("the other process's session is not listed here: %+v, %v", list, err)
	}
	pending, err := mine.PendingMessagesOf(ctx, sid)
	if err != nil || len(pending) != 1 || pending[0].ID != msgID || pending[0].Owner != owner || owner == mine.Owner() {
		t.Fatalf("pending of the session = %+v, %v; want %s owned by %s", pending, err, msgID, owner)
	}
	if !mine.OwnerAlive(owner) {
		t.Fatal("the running child counts as gone")
	}
	if _, _, err := mine.BeginTurn(ctx, sid, "me too", TurnOptions{}); !errors.Is(err, ErrRunningElsewhere) {
		t.Fatalf("BeginTurn in a session another live process runs: %v; want ErrRunningElsewhere", err)
	}
	if n := countRows(t, mine, "messages", "session_id = ?", sid); n != 2 {
		t.Fatalf("a refused turn wrote messages: %d rows", n)
	}

	cmd.Process.Kill()
	cmd.Wait()
	if mine.OwnerAlive(owner) {
		t.Fatal("a killed process still counts as alive")
	}
	if _, err := os.Stat(filepath.Join(ownersDir(path), owner)); !os.IsNotExist(err) {
		t.Fatalf("the dead process's lease file is still there: %v", err)
	}
	// Two processes notice at once: only one takes the run over.
	other, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var wg sync.WaitGroup
	wins := make([]bool, 2)
	for i, s := range []*Store{mine, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := s.ClaimRun(ctx, msgID, owner)
			if err != nil {
				t.Error(err)
			}
			wins[i] = ok
		}()
	}
	wg.Wait()
	if wins[0] == wins[1] {
		t.Fatalf("claims = %v; want exactly one", wins)
	}
	winner := mine
	if wins[1] {
		winner = other
	}
	conf, _ := mine.PendingConfirmations(ctx, sid)
	if len(conf) != 1 || conf[0].Owner != winner.Owner() {
		t.Fatalf("the claimed run's confirmation = %+v; want it owned by the winner %s", conf, winner.Owner())
	}
	if ok, _ := mine.CancelConfirmation(ctx, conf[0].ID, owner); ok {
		t.Fatal("the confirmation was cancelled in the name of its old owner after the claim")
	}
}

// TestTwoStoresWriteOneDatabase: two stores (two sidecars) write turns
// into one file at the same time, each in its own sessions, and both see
// everything: nothing is lost to SQLITE_BUSY or to a stale cache.
func TestTwoStoresWriteOneDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	var stores []*Store
	for range 2 {
		s, err := Open(path, Options{FlushInterval: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores = append(stores, s)
	}
	ctx := context.Background()
	const turns = 15
	var wg sync.WaitGroup
	sids := make([]string, len(stores))
	for i, s := range stores {
		sess := mustSession(t, s, NewSession{Title: fmt.Sprint("window ", i)})
		sids[i] = sess.ID
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range turns {
				q := fmt.Sprintf("w%d q%d", i, n)
				_, w, err := s.BeginTurn(ctx, sess.ID, q, TurnOptions{LLM: []llm.Message{{Role: llm.RoleUser, Content: q}}})
				if err != nil {
					t.Error(err)
					return
				}
				for d := range 10 {
					w.AppendText(fmt.Sprintf("w%d a%d.%d ", i, n, d))
				}
				if err := w.Finalize(ctx, StatusDone, nil); err != nil {
					t.Error(err)
					return
				}
				if err := s.SetState(ctx, sess.ID, "turns", json.RawMessage(fmt.Sprint(n+1))); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, s := range stores {
		list, err := s.ListSessions(ctx, ListOptions{})
		if err != nil || len(list.Sessions) != 2 {
			t.Fatalf("each store lists both windows' sessions: %+v, %v", list, err)
		}
		for i, sid := range sids {
			page, err := s.LoadMessages(ctx, sid, 0, 100)
			if err != nil || len(page.Messages) != 2*turns {
				t.Fatalf("session %d holds %d messages, want %d (%v)", i, len(page.Messages), 2*turns, err)
			}
			if last := page.Messages[len(page.Messages)-1]; !strings.Contains(last.Parts[0].Text, fmt.Sprintf("w%d a%d.9", i, turns-1)) {
				t.Fatalf("session %d's last answer: %+v", i, last.Parts)
			}
			track, _ := s.LLMMessages(ctx, sid)
			if len(track) != turns {
				t.Fatalf("session %d's model track has %d messages, want %d", i, len(track), turns)
			}
			if v, ok, _ := s.GetState(ctx, sid, "turns"); !ok || string(v) != fmt.Sprint(turns) {
				t.Fatalf("session %d's state = %s", i, v)
			}
		}
	}
}

// TestLeaseFiles: a closed store removes its lease; a lease nobody holds is
// a process gone (and is removed when found), except an empty one, which
// may be a lease being created, until it is old.
func TestLeaseFiles(t *testing.T) {
	if !filelock.Supported {
		t.Skip("no file locks on this platform")
	}
	path := filepath.Join(t.TempDir(), "sessions.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dir := ownersDir(path)
	write := func(id, content string, age time.Duration) string {
		p := filepath.Join(dir, id)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		os.Chtimes(p, at, at)
		return p
	}
	gone, creating, stale := newID(), newID(), newID()
	write(gone, "pid 1\n", 0)
	write(creating, "", 0)
	stalePath := write(stale, "", 2*staleLease)
	if s.OwnerAlive(gone) || s.OwnerAlive("") || s.OwnerAlive("../../etc") {
		t.Fatal("an unheld lease, no owner or a malformed id counts as alive")
	}
	if !s.OwnerAlive(creating) {
		t.Fatal("a young empty lease (a process between creating and locking it) counts as gone")
	}
	if !s.OwnerAlive(s.Owner()) {
		t.Fatal("this store counts itself as gone")
	}
	other, err := Open(path, Options{}) // sweeps what is long gone
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stalePath); !os.IsNotExist(err) {
		t.Fatalf("Open left an hour-old unheld lease: %v", err)
	}
	if !s.OwnerAlive(other.Owner()) {
		t.Fatal("another open store counts as gone")
	}
	lease := filepath.Join(dir, other.Owner())
	other.Close()
	if _, err := os.Stat(lease); !os.IsNotExist(err) {
		t.Fatalf("Close left its lease file: %v", err)
	}
	if s.OwnerAlive(other.Owner()) {
		t.Fatal("a closed store counts as alive")
	}
}
