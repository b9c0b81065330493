package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

func contents(msgs []llm.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Content
	}
	return out
}

func TestReplaceLLMMessages(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{}).ID
	var msgs []llm.Message
	for i := 0; i < 6; i++ {
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: fmt.Sprint(i)})
	}
	if first, err := s.AppendLLMMessages(ctx, id, "src", msgs...); err != nil || first != 0 {
		t.Fatal(first, err)
	}
	sum := func(c string) []llm.Message { return []llm.Message{{Role: llm.RoleSystem, Content: c}} }
	steps := []struct {
		from, to int
		with     []llm.Message
		want     string
	}{
		{1, 4, sum("S"), "[0 S 4 5]"},                        // shrink
		{1, 2, append(sum("A"), sum("B")...), "[0 A B 4 5]"}, // grow
		{5, 5, sum("E"), "[0 A B 4 5 E]"},                    // insert at end
		{0, 0, nil, "[0 A B 4 5 E]"},                         // no-op
		{0, 6, sum("ALL"), "[ALL]"},                          // whole range
	}
	for _, st := range steps {
		if err := s.ReplaceLLMMessages(ctx, id, st.from, st.to, st.with); err != nil {
			t.Fatal(err)
		}
		entries, _ := s.LLMEntries(ctx, id)
		got, _ := s.LLMMessages(ctx, id)
		if fmt.Sprint(contents(got)) != st.want {
			t.Fatalf("replace [%d,%d): %v, want %s", st.from, st.to, contents(got), st.want)
		}
		for i, e := range entries {
			if e.Position != i {
				t.Fatalf("positions not contiguous: %+v", entries)
			}
		}
	}
	for _, r := range [][2]int{{-1, 0}, {1, 0}, {0, 2}} {
		if err := s.ReplaceLLMMessages(ctx, id, r[0], r[1], nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("range %v: %v", r, err)
		}
	}
	if err := s.ReplaceLLMMessages(ctx, id, 0, 1, []llm.Message{{Role: "bogus"}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad role: %v", err)
	}
	if err := s.ReplaceLLMMessages(ctx, "nope", 0, 0, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown session: %v", err)
	}
	if got, _ := s.LLMMessages(ctx, id); fmt.Sprint(contents(got)) != "[ALL]" {
		t.Fatalf("failed replaces changed the track: %v", contents(got))
	}
}

// TestReplaceLLMMessagesIsAtomicForReaders compacts a track again and again
// while readers check that they only ever see a complete old or new track.
func TestReplaceLLMMessagesIsAtomicForReaders(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{}).ID
	var long []llm.Message
	for i := 0; i < 40; i++ {
		long = append(long, llm.Message{Role: llm.RoleUser, Content: "long"})
	}
	short := []llm.Message{{Role: llm.RoleSystem, Content: "short"}}
	s.AppendLLMMessages(ctx, id, "", long...)
	done := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				got, err := s.LLMMessages(ctx, id)
				if err != nil {
					errs <- err
					return
				}
				ok := (len(got) == 40 && got[0].Content == "long" && got[39].Content == "long") || (len(got) == 1 && got[0].Content == "short")
				if !ok {
					errs <- fmt.Errorf("reader saw a mixed track of %d entries", len(got))
					return
				}
			}
		}()
	}
	for i := 0; i < 100; i++ {
		cur, _ := s.LLMMessages(ctx, id)
		next := long
		if len(cur) == 40 {
			next = short
		}
		if err := s.ReplaceLLMMessages(ctx, id, 0, len(cur), next); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// LLMLast answers the track's length and last message, through replaces,
// for an empty track and for an unknown session.
func TestLLMLast(t *testing.T) {
	s := openTest(t, Options{})
	ctx := context.Background()
	id := mustSession(t, s, NewSession{}).ID
	if n, m, err := s.LLMLast(ctx, id); err != nil || n != 0 || m.Content != "" {
		t.Fatalf("empty track: %d %+v %v", n, m, err)
	}
	if _, _, err := s.LLMLast(ctx, "no-such-session"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown session: %v, want ErrNotFound", err)
	}
	var msgs []llm.Message
	for i := 0; i < 5; i++ {
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: fmt.Sprint(i)})
	}
	if _, err := s.AppendLLMMessages(ctx, id, "src", msgs...); err != nil {
		t.Fatal(err)
	}
	if n, m, err := s.LLMLast(ctx, id); err != nil || n != 5 || m.Content != "4" {
		t.Fatalf("after append: %d %q %v, want 5 \"4\"", n, m.Content, err)
	}
	if err := s.ReplaceLLMMessages(ctx, id, 1, 5, []llm.Message{{Role: llm.RoleSystem, Content: "S"}}); err != nil {
		t.Fatal(err)
	}
	if n, m, err := s.LLMLast(ctx, id); err != nil || n != 2 || m.Content != "S" {
		t.Fatalf("after replace: %d %q %v, want 2 \"S\"", n, m.Content, err)
	}
}
