package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A large database closed cleanly opens without the full-page check; one
// that was not closed, or that changed after its close, is checked again,
// and damage is still found and moved aside.
func TestLargeDatabaseCheckedOnlyAfterAnUncleanClose(t *testing.T) {
	old := alwaysCheckBelow
	alwaysCheckBelow = 0 // every file counts as large
	t.Cleanup(func() { alwaysCheckBelow = old })
	path := filepath.Join(t.TempDir(), "ws.db")
	opens := func(what string, wantCheck bool) *Store {
		t.Helper()
		before := quickChecks.Load()
		s, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := quickChecks.Load() - before; (got > 0) != wantCheck {
			t.Fatalf("%s: %d checks, want a check: %v", what, got, wantCheck)
		}
		return s
	}

	s := opens("first open", true)
	sess := mustSession(t, s, NewSession{Title: "kept"})
	if _, err := s.AppendMessage(context.Background(), sess.ID, NewMessage{Role: RoleUser,
		Parts: []Part{{Kind: PartText, Text: strings.Repeat("history ", 500)}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cleanMarker(path)); err != nil {
		t.Fatalf("a clean close left no marker: %v", err)
	}

	s = opens("reopen after a clean close", false)
	if _, err := os.Stat(cleanMarker(path)); err == nil {
		t.Fatal("the marker outlived the open: a crash now would skip the next check")
	}
	// Not closed (as after a crash or kill): the next open checks.
	s.w.Close()
	s.r.Close()
	s = opens("reopen after no close", true)
	s.Close()

	// Changed after the clean close (a tool, a restore from backup, damage):
	// the stamp no longer matches, so the file is checked, and damage found.
	fi, _ := os.Stat(path)
	corruptions["garbage pages"](t, path) // the same size
	// A modification time made to differ for sure: a write within one
	// clock tick of the close could keep it.
	_ = os.Chtimes(path, time.Now(), fi.ModTime().Add(time.Second))
	s = opens("reopen after the file changed", true)
	defer s.Close()
	if s.Recovered() == nil {
		t.Fatal("the damaged database was not found and moved aside")
	}
}

// Under alwaysCheckBelow, every open checks, clean close or not.
func TestSmallDatabaseAlwaysChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	for i := 0; i < 2; i++ {
		before := quickChecks.Load()
		s, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if quickChecks.Load() == before {
			t.Fatalf("open %d of a small database skipped the check", i+1)
		}
		s.Close()
	}
}

// A long session's database (over a megabyte, the size of some hundred
// messages with tool output) closed cleanly opens without the check, so
// opening the editor does not take longer as history grows.
func TestLongHistoryClosedCleanlyOpensWithoutCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess := mustSession(t, s, NewSession{Title: "long"})
	for i := 0; i < 300; i++ {
		if _, err := s.AppendMessage(context.Background(), sess.ID, NewMessage{Role: RoleUser,
			Parts: []Part{{Kind: PartText, Text: strings.Repeat("tool output line\n", 400)}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() < 2<<20 {
		t.Fatalf("the history is %d bytes, want over 2 MB (%v)", fi.Size(), err)
	}
	before := quickChecks.Load()
	s, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if quickChecks.Load() != before {
		t.Fatalf("a cleanly closed %d MB history was checked page by page at open", fi.Size()>>20)
	}
}
