package store

import (
	"context"
	"database/sql"
	"errors"
)

// The statements a turn runs on every tool round are prepared once on the
// write connection (each text lives in the file of the table it writes).
// SQLite parses and plans a statement on every prepare, and an unprepared
// tx.ExecContext prepares each time: parsing these few texts was about a
// tenth of a read round's CPU.
// hotWrites lists them: a fixed set of texts, so the cache never grows.
var hotWrites = []string{touchMessageSQL, statusMessageSQL, touchSessionSQL, upsertPartSQL, insertLLMSQL, llmLenSQL, sessionExistsSQL, setStateSQL}

// writeStmts holds hotWrites prepared on the write pool. They are prepared
// when the store opens, while no transaction holds the pool's single
// connection (preparing on the pool inside a transaction would wait for
// that connection forever). A transaction runs one through tx.StmtContext,
// which reuses the statement already prepared on its connection, and
// prepares it again on that connection if the pool has replaced it.
//
// Read-only after prepareWrites; a *sql.Stmt is safe for concurrent use.
type writeStmts map[string]*sql.Stmt

func prepareWrites(db *sql.DB) (writeStmts, error) {
	ws := writeStmts{}
	for _, q := range hotWrites {
		st, err := db.Prepare(q)
		if err != nil {
			return nil, errors.Join(err, ws.close())
		}
		ws[q] = st
	}
	return ws, nil
}

func (ws writeStmts) close() error {
	var errs []error
	for _, st := range ws {
		errs = append(errs, st.Close())
	}
	return errors.Join(errs...)
}

// txExec runs query in tx, through its prepared statement when it is one
// of hotWrites.
func (s *Store) txExec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if st := s.ws[query]; st != nil {
		return tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, query, args...)
}

// txQueryRow is txExec for a query of one row.
func (s *Store) txQueryRow(ctx context.Context, tx *sql.Tx, query string, args ...any) *sql.Row {
	if st := s.ws[query]; st != nil {
		return tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return tx.QueryRowContext(ctx, query, args...)
}
