package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// stmtCache keeps the read pool's hot statements prepared. SQLite parses
// and plans a statement on every prepare, which costs more than running a
// small query; database/sql's *sql.Stmt re-prepares it at most once per
// pooled connection and reuses it after that.
//
// Only statements built from a fixed set of texts belong here (the cache
// never evicts): user input goes in as bind arguments, never as text.
//
// Concurrency: safe for concurrent use; mu guards stmts and closed. A
// *sql.Stmt itself is safe for concurrent use.
type stmtCache struct {
	db     *sql.DB
	mu     sync.Mutex
	stmts  map[string]*sql.Stmt
	closed bool
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]*sql.Stmt{}}
}

var errStoreClosed = errors.New("the conversation database is closed")

// get returns the prepared statement for query, preparing it on first use.
// Preparing under mu keeps a burst of first calls from preparing the same
// text several times; it happens once per text for the life of the Store.
func (c *stmtCache) get(ctx context.Context, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errStoreClosed
	}
	if st, ok := c.stmts[query]; ok {
		return st, nil
	}
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.stmts[query] = st
	return st, nil
}

// txReads are the read statements run inside a read transaction on every
// model request. prepareTxReads prepares them when the store opens: get
// prepares on a pooled connection, which a transaction must not wait for
// while it holds one of its own (every connection could be so held).
var txReads = []string{trackCharsBeforeSQL, trackFromSQL}

func (c *stmtCache) prepareTxReads(ctx context.Context) error {
	for _, q := range txReads {
		if _, err := c.get(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// txRead is query for tx: through tx.StmtContext when it is one of
// txReads (prepared again on tx's connection at most once), else
// prepared in tx for this use. tx's end closes it.
func (s *Store) txRead(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	s.rt.mu.Lock()
	st := s.rt.stmts[query]
	s.rt.mu.Unlock()
	if st != nil {
		return tx.StmtContext(ctx, st), nil
	}
	return tx.PrepareContext(ctx, query)
}

// close releases every statement; later gets fail.
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var errs []error
	for q, st := range c.stmts {
		errs = append(errs, st.Close())
		delete(c.stmts, q)
	}
	return errors.Join(errs...)
}
