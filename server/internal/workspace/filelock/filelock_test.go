package filelock

import (
	"os"
	"path/filepath"
	"testing"
)

// Two opens of one file exclude each other, as two processes would, and
// an unlock (or a close, as at a process's exit) frees the lock.
func TestTryLockSeesAnotherHolder(t *testing.T) {
	if !Supported {
		t.Skip("no file locks on this platform")
	}
	p := filepath.Join(t.TempDir(), "lease")
	open := func() *os.File {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	if ok, err := TryLock(a); !ok || err != nil {
		t.Fatalf("first TryLock = %v, %v; want the lock", ok, err)
	}
	if ok, err := TryLock(b); ok || err != nil {
		t.Fatalf("TryLock while another file holds the lock = %v, %v; want false, nil", ok, err)
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if ok, err := TryLock(b); !ok || err != nil {
		t.Fatalf("TryLock after the holder unlocked = %v, %v; want the lock", ok, err)
	}
	a.Close()
	c := open()
	if ok, _ := TryLock(c); ok {
		t.Fatal("a third open took a lock that is still held")
	}
	b.Close() // a process's exit closes its files
	if ok, err := TryLock(c); !ok || err != nil {
		t.Fatalf("TryLock after the holder closed its file = %v, %v; want the lock", ok, err)
	}
	if err := Unlock(c); err != nil {
		t.Fatal(err)
	}
	if err := Lock(c); err != nil {
		t.Fatalf("Lock on a free file: %v", err)
	}
}
