package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
)

func textHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}

// crashChild runs a scripted agent workload against the database named by
// GOVIBE_STORE_TEST_PATH until it is killed, printing an "ack" line after
// every call that returned, i.e. that the store promised is durable.
func crashChild() {
	path := os.Getenv("GOVIBE_STORE_TEST_PATH")
	seed, _ := strconv.ParseUint(os.Getenv("GOVIBE_STORE_TEST_SEED"), 10, 64)
	rng := rand.New(rand.NewPCG(seed, 1))
	die := func(err error) {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(2)
	}
	s, err := Open(path, Options{FlushInterval: 3 * time.Millisecond})
	if err != nil {
		die(err)
	}
	if ce := s.Recovered(); ce != nil {
		die(ce)
	}
	ack := func(format string, args ...any) { fmt.Printf("ack "+format+"\n", args...) }
	ctx := context.Background()
	sess, err := s.CreateSession(ctx, NewSession{Title: fmt.Sprint("run ", seed)})
	if err != nil {
		die(err)
	}
	ack("session %s", sess.ID)
	for turn := 0; ; turn++ {
		q := fmt.Sprintf("seed%d-turn%d", seed, turn)
		ids, w, err := s.BeginTurn(ctx, sess.ID, q, TurnOptions{LLM: []llm.Message{{Role: llm.RoleUser, Content: q}}})
		if err != nil {
			die(err)
		}
		ack("turn %s %s %s %s", sess.ID, ids.UserMessageID, ids.AssistantMessageID, q)
		var text strings.Builder
		for step := 0; step < 25; step++ {
			switch r := rng.IntN(10); {
			case r < 7:
				delta := fmt.Sprintf("t%d.s%d ", turn, step)
				if err := w.AppendText(delta); err != nil {
					die(err)
				}
				text.WriteString(delta)
				time.Sleep(time.Duration(rng.IntN(2000)) * time.Microsecond)
			case r < 9:
				call := fmt.Sprintf("call-%d-%d", turn, step)
				if err := w.AddToolCall(ctx, ToolCall{ID: call, Name: "shell", Arguments: `{"cmd":"ls"}`}); err != nil {
					die(err)
				}
				ack("toolcall %s %s %s", ids.AssistantMessageID, call, textHash(text.String()))
				if err := w.AddToolResult(ctx, ToolResult{ToolCallID: call, OK: true, Output: strings.Repeat("out ", rng.IntN(400))},
					llm.Message{Role: llm.RoleTool, ToolCallID: call, Content: "out"}); err != nil {
					die(err)
				}
				ack("toolresult %s %s", ids.AssistantMessageID, call)
			default:
				key := fmt.Sprintf("k%d-%d", turn, step)
				if err := s.SetState(ctx, sess.ID, key, []byte(`"`+key+`"`)); err != nil {
					die(err)
				}
				ack("state %s %s", sess.ID, key)
			}
		}
		if err := w.Finalize(ctx, StatusDone, &llm.Usage{PromptTokens: int64(turn)}); err != nil {
			die(err)
		}
		ack("final %s %s", ids.AssistantMessageID, textHash(text.String()))
	}
}

// verifyAck checks that one acknowledged write survived.
func verifyAck(ctx context.Context, s *Store, line string) error {
	f := strings.Fields(line)[1:]
	switch f[0] {
	case "session":
		_, err := s.GetSession(ctx, f[1])
		return err
	case "turn":
		u, err := s.GetMessage(ctx, f[2])
		if err != nil {
			return err
		}
		a, err := s.GetMessage(ctx, f[3])
		if err != nil {
			return err
		}
		if u.Text() != f[4] || a.ReplyTo != u.ID || a.Seq != u.Seq+1 {
			return fmt.Errorf("turn records wrong: user %q, assistant replies to %q", u.Text(), a.ReplyTo)
		}
		entries, err := s.LLMEntries(ctx, f[1])
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.SourceMessageID == u.ID && e.Message.Content == f[4] {
				return nil
			}
		}
		return fmt.Errorf("user llm entry missing")
	case "toolcall", "toolresult", "final":
		m, err := s.GetMessage(ctx, f[1])
		if err != nil {
			return err
		}
		var text strings.Builder
		for _, p := range m.Parts {
			switch {
			case p.Kind == PartText:
				text.WriteString(p.Text)
			case f[0] == "toolcall" && p.Kind == PartToolCall && p.ToolCall.ID == f[2]:
				if got := textHash(text.String()); got != f[3] {
					return fmt.Errorf("text before tool call %s: hash %s, want %s (%q)", f[2], got, f[3], text.String())
				}
				return nil
			case f[0] == "toolresult" && p.Kind == PartToolResult && p.ToolResult.ToolCallID == f[2]:
				return nil
			}
		}
		if f[0] == "final" {
			if m.Status != StatusDone || m.Usage == nil || textHash(text.String()) != f[2] {
				return fmt.Errorf("final message: status %s, text %q", m.Status, text.String())
			}
			return nil
		}
		return fmt.Errorf("%s %s missing from message", f[0], f[2])
	case "state":
		v, ok, err := s.GetState(ctx, f[1], f[2])
		if err != nil || !ok || string(v) != `"`+f[2]+`"` {
			return fmt.Errorf("state %s = %s, %v, %v", f[2], v, ok, err)
		}
		return nil
	}
	return fmt.Errorf("unknown ack")
}

// ackBuffer collects a child's stdout while the parent watches progress.
type ackBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *ackBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *ackBuffer) lines() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Count(b.buf.Bytes(), []byte("\n"))
}

func (b *ackBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestCrashLosesNoAcknowledgedWrite SIGKILLs a writing child process at
// random moments (fixed seed) and checks after each kill that the database
// is intact and holds every write the child had acknowledged.
func TestCrashLosesNoAcknowledgedWrite(t *testing.T) {
	const iterations = 60
	path := filepath.Join(t.TempDir(), "ws.db")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(20251122, 7))
	ctx := context.Background()
	var all []string
	productive := 0
	for i := 0; i < iterations; i++ {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=crash", "GOVIBE_STORE_TEST_PATH="+path, fmt.Sprint("GOVIBE_STORE_TEST_SEED=", i))
		stdout := &ackBuffer{}
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill after a random amount of progress rather than of time, so
		// slow runs (-race, a busy machine) are still killed mid-work; the
		// extra random sleep lands kills between acks as well. Every tenth
		// kill lands during start-up instead.
		target := 1 + rng.IntN(60)
		if i%10 == 9 {
			target = 0
		}
		for deadline := time.Now().Add(60 * time.Second); stdout.lines() < target && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(time.Duration(rng.IntN(30)) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("iteration %d: child ended by itself (%v): %s", i, cmd.ProcessState, stderr.String())
		}
		out := stdout.String()
		if j := strings.LastIndexByte(out, '\n'); j >= 0 {
			out = out[:j] // drop a line cut by the kill
		} else {
			out = ""
		}
		var acks []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "ack ") {
				acks = append(acks, l)
			}
		}
		if len(acks) > 5 {
			productive++
		}
		all = append(all, acks...)

		s, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("iteration %d: reopen: %v", i, err)
		}
		if s.Recovered() != nil {
			t.Fatalf("iteration %d: database reported corrupt: %v", i, s.Recovered())
		}
		if v, err := s.IntegrityCheck(ctx); err != nil || v != "ok" {
			t.Fatalf("iteration %d: integrity_check = %q, %v", i, v, err)
		}
		for _, a := range acks {
			if err := verifyAck(ctx, s, a); err != nil {
				t.Fatalf("iteration %d: acknowledged %q lost: %v", i, a, err)
			}
		}
		s.Close()
	}
	// Everything acknowledged in earlier runs must still be there at the end.
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, a := range all {
		if err := verifyAck(ctx, s, a); err != nil {
			t.Fatalf("acknowledged %q lost by the end: %v", a, err)
		}
	}
	// Guard against a test that passes because children never got going.
	if productive < iterations/2 || len(all) < 15*iterations {
		t.Fatalf("only %d of %d children wrote more than 5 acks (%d acks in all)", productive, iterations, len(all))
	}
	t.Logf("%d kills, %d acknowledged writes verified", iterations, len(all))
}
