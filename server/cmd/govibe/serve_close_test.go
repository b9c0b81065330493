package main

import (
	"os"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
)

// TestShutdownDoesNotWaitForAStuckTurn: a close that never returns (a
// turn stuck in a call that ignores cancellation) no longer keeps the
// sidecar from exiting on SIGTERM: the grace period ends it, and so does a
// second signal.
func TestShutdownDoesNotWaitForAStuckTurn(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	shut := func() { <-stuck }
	sigs := make(chan os.Signal, 1)
	done := make(chan bool, 1)
	go func() { done <- closeWithin(shut, 50*time.Millisecond, sigs, zap.NewNop()) }()
	select {
	case ok := <-done:
		if ok {
			t.Fatal("closeWithin reported a clean close")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("closeWithin waited for the stuck close past its grace")
	}
	go func() { done <- closeWithin(shut, time.Hour, sigs, zap.NewNop()) }()
	sigs <- syscall.SIGTERM
	select {
	case ok := <-done:
		if ok {
			t.Fatal("closeWithin reported a clean close")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a second signal did not end the shutdown")
	}
	if !closeWithin(func() {}, time.Hour, sigs, zap.NewNop()) {
		t.Fatal("a close that returns is not reported as clean")
	}
}
