package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/filelock"
)

// WaitOwnerGone parks until the other store closes (the kernel releases
// its lease lock), answers at once for an owner already gone, refuses to
// wait for itself, and gives up when its context ends.
func TestWaitOwnerGone(t *testing.T) {
	if !filelock.Supported {
		t.Skip("no file locks on this platform")
	}
	path := filepath.Join(t.TempDir(), "sessions.db")
	a, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.WaitOwnerGone(context.Background(), b.Owner()); err == nil {
		t.Fatal("a store waited for itself")
	}
	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := b.WaitOwnerGone(short, a.Owner()); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting on a live owner past the deadline: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- b.WaitOwnerGone(context.Background(), a.Owner()) }()
	owner := a.Owner()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("after the owner closed: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the wait did not end when the owner closed")
	}
	if err := b.WaitOwnerGone(context.Background(), owner); err != nil {
		t.Fatalf("an owner already gone: %v", err)
	}
}
