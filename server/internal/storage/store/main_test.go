package store

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// childEnv makes the test binary act as a helper process (see TestMain).
const childEnv = "GOVIBE_STORE_TEST_CHILD"

// TestMain re-executes the test binary as a helper child when childEnv is
// set: the crash test SIGKILLs such children mid-write, and the permission
// test runs one as an unprivileged user.
func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "crash":
		crashChild()
		os.Exit(0)
	case "open":
		openChild()
		os.Exit(0)
	case "turn":
		turnChild()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeClock returns strictly increasing times so ordering by updated_at is
// deterministic in tests.
func fakeClock() func() time.Time {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var n atomic.Int64
	return func() time.Time { return base.Add(time.Duration(n.Add(1)) * time.Millisecond) }
}

func openTest(t *testing.T, opts Options) *Store {
	t.Helper()
	if opts.Now == nil {
		opts.Now = fakeClock()
	}
	s, err := Open(filepath.Join(t.TempDir(), "ws.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func mustSession(t *testing.T, s *Store, ns NewSession) Session {
	t.Helper()
	sess, err := s.CreateSession(context.Background(), ns)
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

// countRows counts rows of a table through the write connection, to see
// exactly what is committed.
func countRows(t *testing.T, s *Store, table, where string, args ...any) int {
	t.Helper()
	var n int
	if err := s.r.QueryRow(`SELECT COUNT(*) FROM `+table+` WHERE `+where, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
