package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/govibe/govibe/server/internal/workspace/filelock"
)

// Several processes may open one database: two editor windows on one
// workspace each run a sidecar. Each open Store holds a lease, a file
// under <db>-owners named by a fresh id and locked for as long as the
// Store is open. The kernel drops the lock when the process exits, however
// it exits, so a lease another process can lock belongs to a process that
// is gone. Pending messages and confirmations carry their writer's lease
// id (messages.owner, confirmations.owner): what a live process left
// pending is its running turn and is never touched by another one.

// staleLease is how old an unlocked lease file must be before Open sweeps
// it away: younger, it may belong to a process between creating and
// locking it.
const staleLease = time.Hour

func ownersDir(dbPath string) string { return dbPath + "-owners" }

// lease is this Store's proof of life.
type lease struct {
	id string
	f  *os.File

	mu   sync.Mutex
	dead map[string]bool // owners found gone; a gone process never comes back
}

// takeLease creates and locks this process's lease file. The file's
// content is written after the lock: a locked-but-empty file is a lease
// being created, not one given up.
func takeLease(dbPath string) (*lease, error) {
	dir := ownersDir(dbPath)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	sweepLeases(dir)
	id := newID()
	f, err := os.OpenFile(filepath.Join(dir, id), os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	ok, err := filelock.TryLock(f)
	if err == nil && !ok {
		err = errors.New("a new lease file is locked by someone else")
	}
	if err == nil {
		_, err = fmt.Fprintf(f, "pid %d\n", os.Getpid())
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("taking the database lease: %w", err)
	}
	return &lease{id: id, f: f, dead: map[string]bool{}}, nil
}

func (l *lease) release() {
	_ = filelock.Unlock(l.f)
	_ = l.f.Close()
	_ = os.Remove(l.f.Name())
}

// alive reports whether the process holding the lease id still runs. ”
// (rows from before leases) and malformed ids are nobody's.
func (l *lease) alive(dbPath, id string) bool {
	if id == l.id {
		return true
	}
	if u, err := uuid.Parse(id); err != nil || u.String() != id || !filelock.Supported {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dead[id] {
		return false
	}
	if holderAlive(filepath.Join(ownersDir(dbPath), id), 0) {
		return true
	}
	l.dead[id] = true
	return false
}

// holderAlive reports whether a lease file is held, and removes it when
// it is not and is complete (or older than minAge when empty). A file that
// cannot be checked counts as held: taking over a live run would be worse
// than leaving an orphan for the next check.
func holderAlive(path string, minAge time.Duration) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	ok, err := filelock.TryLock(f)
	if err != nil || !ok {
		f.Close()
		return true
	}
	fi, err := f.Stat()
	young := err != nil || time.Since(fi.ModTime()) < minAge || (fi.Size() == 0 && time.Since(fi.ModTime()) < staleLease)
	_ = filelock.Unlock(f)
	f.Close()
	if young {
		return true
	}
	// Closed before removing: Windows removes no open file.
	_ = os.Remove(path)
	return false
}

// sweepLeases removes the lease files of processes gone for a while, so
// the folder does not grow by one file per sidecar start.
func sweepLeases(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil || !filelock.Supported {
		return
	}
	for _, e := range entries {
		if !e.IsDir() {
			holderAlive(filepath.Join(dir, e.Name()), staleLease)
		}
	}
}

// Owner is this Store's lease id: what it writes into the owner column of
// its pending messages and confirmations.
func (s *Store) Owner() string { return s.lease.id }

// OwnerAlive reports whether the process whose lease id is owner still has
// this database open (this Store included).
func (s *Store) OwnerAlive(owner string) bool { return s.lease.alive(s.path, owner) }

// WaitOwnerGone returns nil once the process holding the lease owner has
// closed the database or exited, and ctx's error if ctx ends first. The
// kernel wakes the wait when the holder's lock goes, so nothing polls; a
// wait that ctx ended stays parked in the background until then.
func (s *Store) WaitOwnerGone(ctx context.Context, owner string) error {
	if owner == s.lease.id {
		return invalidf("a store cannot wait for itself to close")
	}
	if !s.OwnerAlive(owner) {
		return nil
	}
	f, err := os.OpenFile(filepath.Join(ownersDir(s.path), owner), os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		err := filelock.Lock(f)
		if err == nil {
			_ = filelock.Unlock(f)
		}
		f.Close()
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return err
		}
		s.OwnerAlive(owner) // records it gone and removes its lease file
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
