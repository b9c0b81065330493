package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// DefaultFlushInterval bounds how much streamed text a crash can lose.
const DefaultFlushInterval = 500 * time.Millisecond

// Options tunes Open. The zero value is the production configuration.
type Options struct {
	// BusyTimeout bounds how long a statement waits for another process
	// that holds the write lock. Default 5s.
	BusyTimeout time.Duration
	// RelaxedSync selects synchronous=NORMAL for every commit. NORMAL in
	// WAL mode survives a process crash but may drop the last commits on
	// power loss; FULL fsyncs the WAL on every commit. By default GoVibe
	// commits at FULL, except a turn's intermediate records and usage
	// accounting (writeTxRelaxed): a finished turn and an acknowledged
	// tool result stay so after a power cut.
	RelaxedSync bool
	// FlushInterval is the StreamWriter's coalescing period. Default 500ms.
	FlushInterval time.Duration
	// Now overrides the clock; tests use it for deterministic ordering.
	Now func() time.Time
}

// Store is one workspace's conversation database. See the package comment
// for its concurrency guarantees.
type Store struct {
	path      string
	opts      Options
	w         *sql.DB // exactly one connection: the in-process write queue
	r         *sql.DB // read pool
	rq        *stmtCache
	ws        writeStmts // hot statements prepared on w (write_stmts.go)
	rt        *stmtCache // txReads, prepared on open (stmt_cache.go)
	recovered *CorruptError
	lease     *lease // this process's proof of life (owner.go)

	tracks     trackCache    // decoded model tracks (llm_cache.go)
	trackReads atomic.Uint64 // whole-track decodes (FullTrackReads)
}

// Open opens or creates the database at path, creating its directory, and
// applies pending migrations.
//
// A damaged database is never silently emptied: it is renamed to
// "<name>.corrupt-<timestamp>" together with its -wal and -shm files, a
// fresh database is created, and Recovered reports what happened. A file
// this process may not access yields an *UnreadableError and a file from a
// newer GoVibe a *VersionError; both are left untouched.
func Open(path string, opts Options) (*Store, error) {
	if path == "" || strings.ContainsAny(path, "?#") {
		return nil, invalidf("database path %q must be non-empty and contain no '?' or '#'", path)
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	if opts.FlushInterval <= 0 {
		opts.FlushInterval = DefaultFlushInterval
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, &UnreadableError{Path: path, Err: err}
	}
	if err := checkAccess(path); err != nil {
		return nil, err
	}
	var s *Store
	err := checkHeader(path)
	if err == nil {
		s, err = openAt(path, opts)
	}
	if err == nil {
		return s.withLease()
	}
	var ce *CorruptError
	if !errors.As(err, &ce) {
		return nil, err
	}
	ce.At = opts.Now()
	moved, mvErr := moveAside(path, ce.At)
	if mvErr != nil {
		return nil, fmt.Errorf("%w; moving it aside failed: %v", ce, mvErr)
	}
	ce.MovedTo = moved
	s, err = openAt(path, opts)
	if err != nil {
		return nil, fmt.Errorf("%v; creating a fresh database failed: %w", ce, err)
	}
	s.recovered = ce
	return s.withLease()
}

// withLease takes s's owner lease (owner.go), or closes s.
func (s *Store) withLease() (*Store, error) {
	l, err := takeLease(s.path)
	if err != nil {
		_ = errors.Join(s.rq.close(), s.rt.close(), s.ws.close(), s.r.Close(), s.w.Close())
		return nil, &UnreadableError{Path: s.path, Err: err}
	}
	s.lease = l
	return s, nil
}

// Recovered reports the corruption Open recovered from, or nil. The caller
// should tell the user: their previous history is in ce.MovedTo.
func (s *Store) Recovered() *CorruptError { return s.recovered }

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close releases the database. StreamWriters must be finalized first;
// their later flushes fail.
func (s *Store) Close() error {
	err := errors.Join(s.rq.close(), s.rt.close(), s.ws.close(), s.r.Close(), s.w.Close())
	if err == nil {
		markCleanClose(s.path)
	}
	// After the connections: until the database is closed, this process
	// may still write as the owner of its pending rows.
	s.lease.release()
	return err
}

// IntegrityCheck runs PRAGMA integrity_check and returns its verdict ("ok"
// when healthy).
func (s *Store) IntegrityCheck(ctx context.Context) (string, error) {
	rows, err := s.r.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			return "", err
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n"), rows.Err()
}

func checkAccess(path string) error {
	for _, p := range []string{path, path + "-wal"} {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return &UnreadableError{Path: path, Err: err}
		}
		if !fi.Mode().IsRegular() {
			return &UnreadableError{Path: path, Err: fmt.Errorf("%s is not a regular file", p)}
		}
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			return &UnreadableError{Path: path, Err: err}
		}
		f.Close()
	}
	return nil
}

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// checkHeader recognises a file that is not a database before SQLite
// touches it: opening one in WAL mode would discard its -wal file, which
// we want to move aside intact.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &UnreadableError{Path: path, Err: err}
	}
	defer f.Close()
	buf := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, buf)
	if n == 0 && (err == io.EOF) {
		return nil // an empty file is an empty database
	}
	if string(buf[:n]) != sqliteHeader {
		return &CorruptError{Path: path, Err: errors.New("file is not a SQLite database (bad header)")}
	}
	return nil
}

func openAt(path string, opts Options) (*Store, error) {
	// Before SQLite opens the file: opening it is not a change, but read
	// the stamp the way Close wrote it.
	check := needsCheck(path)
	sync := "FULL"
	if opts.RelaxedSync {
		sync = "NORMAL"
	}
	base := fmt.Sprintf("%s?_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)&_pragma=synchronous(%s)",
		path, opts.BusyTimeout.Milliseconds(), sync)
	// IMMEDIATE transactions take the write lock up front, so a transaction
	// that reads before writing cannot fail midway with SQLITE_BUSY.
	w, err := sql.Open("sqlite", base+"&_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	s := &Store{path: path, opts: opts, w: w}
	fail := func(err error) (*Store, error) {
		w.Close()
		if s.r != nil {
			s.r.Close()
		}
		return nil, classify(path, err)
	}
	if err := w.Ping(); err != nil {
		return fail(err)
	}
	if check {
		if err := quickCheck(w); err != nil {
			return fail(err)
		}
	}
	if err := migrate(w, path); err != nil {
		return fail(err)
	}
	if s.ws, err = prepareWrites(w); err != nil {
		return fail(err)
	}
	r, err := sql.Open("sqlite", base+"&_pragma=query_only(1)")
	if err != nil {
		return fail(err)
	}
	r.SetMaxOpenConns(4)
	// Idle connections keep their prepared statements; closing them
	// between bursts of reads would throw that work away.
	r.SetMaxIdleConns(4)
	s.r = r
	s.rq = newStmtCache(r)
	if err := r.Ping(); err != nil {
		return fail(err)
	}
	s.rt = newStmtCache(r)
	if err := s.rt.prepareTxReads(context.Background()); err != nil {
		return fail(err)
	}
	return s, nil
}

func classify(path string, err error) error {
	var ce *CorruptError
	var ue *UnreadableError
	var ve *VersionError
	switch {
	case errors.As(err, &ce), errors.As(err, &ue), errors.As(err, &ve):
		return err
	case isCorruption(err):
		return &CorruptError{Path: path, Err: err}
	case isAccessProblem(err):
		return &UnreadableError{Path: path, Err: err}
	}
	return fmt.Errorf("conversation database %s: %w", path, err)
}

// quickCheck catches damage that SQLite would otherwise only report when a
// broken page is first read, possibly in the middle of a user's turn.
func quickCheck(db *sql.DB) error {
	quickChecks.Add(1)
	rows, err := db.Query("PRAGMA quick_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			return err
		}
		if l != "ok" {
			problems = append(problems, l)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(problems) > 0 {
		if len(problems) > 5 {
			problems = append(problems[:5], fmt.Sprintf("and %d more", len(problems)-5))
		}
		return &CorruptError{Err: fmt.Errorf("integrity check failed: %s", strings.Join(problems, "; "))}
	}
	return nil
}

// moveAside renames path and its WAL/SHM companions so that the damaged
// history stays available for salvage.
func moveAside(path string, at time.Time) (string, error) {
	stamp := at.UTC().Format("20060102T150405Z")
	dest := path + ".corrupt-" + stamp
	for i := 2; exists(dest) || exists(dest+"-wal"); i++ {
		dest = fmt.Sprintf("%s.corrupt-%s-%d", path, stamp, i)
	}
	// Renames never lose data: even if one fails midway, every file still
	// exists under one of the two names and Open reports the failure.
	for _, suffix := range []string{"-wal", "-shm", ""} {
		if err := os.Rename(path+suffix, dest+suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	return dest, nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func newID() string { return uuid.Must(uuid.NewV7()).String() }

func (s *Store) nowMS() int64 { return s.opts.Now().UnixMilli() }

func fromMS(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// writeTx runs fn in one IMMEDIATE transaction on the write connection.
func (s *Store) writeTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// writeTxRelaxed is writeTx committed without waiting for the disk
// (synchronous=NORMAL for this one commit): the commit survives a crash
// of the process, and a power cut may drop it until a later writeTx
// commit, which makes it durable with everything before it (the WAL is
// written and synced in order). For intermediate turn records only:
// streamed-text flushes, tool-call bookkeeping, usage accounting; see
// the package doc, "Durability in a turn".
func (s *Store) writeTxRelaxed(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if s.opts.RelaxedSync {
		return s.writeTx(ctx, fn)
	}
	// The single write connection, held for the pragma, the transaction
	// and the reset, so no other commit runs in between at NORMAL.
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA synchronous=NORMAL"); err != nil {
		return err
	}
	defer func() {
		if _, err := conn.ExecContext(context.Background(), "PRAGMA synchronous=FULL"); err != nil {
			// A connection left at NORMAL would weaken every later
			// commit: discard it, and the pool opens a FULL one.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
