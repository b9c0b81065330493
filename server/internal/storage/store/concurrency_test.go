package store

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// TestConcurrentSessionsWriteInParallel runs several agent turns at once,
// each on its own session, with timer flushes racing synchronous commits
// and readers paging through the sessions meanwhile. Run with -race.
func TestConcurrentSessionsWriteInParallel(t *testing.T) {
	s := openTest(t, Options{FlushInterval: 2 * time.Millisecond})
	ctx := context.Background()
	const sessions, turns, deltas = 6, 4, 60
	ids := make([]string, sessions)
	for i := range ids {
		ids[i] = mustSession(t, s, NewSession{Title: fmt.Sprint("s", i)}).ID
	}
	errs := make(chan error, sessions*2)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i, sid := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for turn := 0; turn < turns; turn++ {
				_, w, err := s.BeginTurn(ctx, sid, fmt.Sprintf("s%d t%d", i, turn), TurnOptions{})
				if err != nil {
					errs <- err
					return
				}
				for d := 0; d < deltas; d++ {
					w.AppendText(fmt.Sprintf("s%dt%dd%d ", i, turn, d))
					if d%20 == 19 {
						call := fmt.Sprintf("c%d", d)
						if err := w.AddToolCall(ctx, ToolCall{ID: call, Name: "t"}); err != nil {
							errs <- err
							return
						}
						if err := w.AddToolResult(ctx, ToolResult{ToolCallID: call, OK: true, Output: call},
							llm.Message{Role: llm.RoleTool, ToolCallID: call}); err != nil {
							errs <- err
							return
						}
					}
					if d%7 == 0 {
						time.Sleep(time.Millisecond)
					}
				}
				if err := w.Finalize(ctx, StatusDone, nil); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.ListSessions(ctx, ListOptions{}); err != nil {
				errs <- err
				return
			}
			if _, err := s.LoadMessages(ctx, ids[0], 0, 50); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i, sid := range ids {
		page, err := s.LoadMessages(ctx, sid, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 2*turns {
			t.Fatalf("session %d has %d messages", i, page.Total)
		}
		for turn := 0; turn < turns; turn++ {
			a := page.Messages[2*turn+1]
			var want strings.Builder
			for d := 0; d < deltas; d++ {
				fmt.Fprintf(&want, "s%dt%dd%d ", i, turn, d)
			}
			if a.Status != StatusDone || a.Text() != want.String() || len(a.Parts) != 3*3 {
				t.Fatalf("session %d turn %d: status %s, %d parts, text %q", i, turn, a.Status, len(a.Parts), a.Text())
			}
		}
		if llmMsgs, _ := s.LLMMessages(ctx, sid); len(llmMsgs) != turns*3 {
			t.Fatalf("session %d llm track has %d entries", i, len(llmMsgs))
		}
	}
	if v, _ := s.IntegrityCheck(ctx); v != "ok" {
		t.Fatal(v)
	}
}
