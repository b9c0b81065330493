package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// Every combination of list options, with many distinct cursors, must
// reuse a bounded set of prepared statements: cursor values and parent ids
// are bind arguments, never statement text.
func TestListSessionsPreparesEachShapeOnce(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	parent := mustSession(t, s, NewSession{Title: "parent"})
	for i := 0; i < 5; i++ {
		mustSession(t, s, NewSession{Title: fmt.Sprint("child", i), ParentID: parent.ID, Kind: KindSubagent})
		mustSession(t, s, NewSession{Title: fmt.Sprint("top", i), Hidden: i%2 == 0})
	}
	for _, hidden := range []bool{false, true} {
		for _, pid := range []string{"", parent.ID} {
			cursor, pages := "", 0
			for {
				page, err := s.ListSessions(ctx, ListOptions{Limit: 1, Cursor: cursor, IncludeHidden: hidden, ParentID: pid})
				if err != nil {
					t.Fatal(err)
				}
				pages++
				if cursor = page.NextCursor; cursor == "" {
					break
				}
			}
			if pages < 3 {
				t.Fatalf("hidden=%v parent=%q: only %d pages", hidden, pid, pages)
			}
		}
	}
	if _, err := s.GetSession(ctx, parent.ID); err != nil {
		t.Fatal(err)
	}
	s.rq.mu.Lock()
	n := len(s.rq.stmts)
	s.rq.mu.Unlock()
	// 2 (parent or top level) x 2 (hidden) x 2 (cursor or not) + GetSession.
	if n != 9 {
		t.Fatalf("%d prepared statements, want 9", n)
	}
}

// Prepared statements must see rows committed after they were prepared,
// from any pooled connection, while writers and readers run concurrently.
func TestCachedStatementsSeeNewRowsUnderConcurrency(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	if page, err := s.ListSessions(ctx, ListOptions{}); err != nil || len(page.Sessions) != 0 {
		t.Fatalf("empty store: %v %v", page, err)
	}
	const writers, each = 4, 10
	var wg sync.WaitGroup
	errc := make(chan error, writers*each*2)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				sess, err := s.CreateSession(ctx, NewSession{Title: "t"})
				if err != nil {
					errc <- err
					return
				}
				got, err := s.GetSession(ctx, sess.ID)
				if err != nil || got.ID != sess.ID {
					errc <- fmt.Errorf("GetSession right after create: %+v %v", got, err)
				}
				if _, err := s.ListSessions(ctx, ListOptions{Limit: 1000}); err != nil {
					errc <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	page, err := s.ListSessions(ctx, ListOptions{Limit: 1000})
	if err != nil || len(page.Sessions) != writers*each {
		t.Fatalf("listed %d sessions, want %d (%v)", len(page.Sessions), writers*each, err)
	}
}

func TestReadsAfterCloseFailClearly(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{Title: "x"}).ID
	if _, err := s.ListSessions(ctx, ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListSessions(ctx, ListOptions{}); !errors.Is(err, errStoreClosed) {
		t.Fatalf("ListSessions after Close = %v", err)
	}
	if _, err := s.GetSession(ctx, id); !errors.Is(err, errStoreClosed) {
		t.Fatalf("GetSession after Close = %v", err)
	}
}
