package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Sessions used to live in the editor's per-window storage slot, so each
// window (and a window that came back in another slot after a reload) had
// its own history. They now belong to the workspace; MergeFrom brings the
// old slots' sessions into its database, once per slot, losing nothing:
// every session (with its sub-agent and reviewer children, messages,
// model track, state and confirmations) that this database lacks is copied
// with its ids, so snapshots and links that name them still match.

// MergeResult says what MergeFrom did.
type MergeResult struct {
	// Copied sessions (children included) and Present ones, already here.
	Copied, Present int
	// Already: the source was merged before and was not read again.
	Already bool
}

// mergeTables are the per-session tables a merge copies, in an order their
// foreign keys accept, with the condition that selects a session's rows in
// the attached source (alias m: its messages).
var mergeTables = []struct{ table, from string }{
	{"sessions", `FROM src.sessions m WHERE m.id = ?`},
	{"messages", `FROM src.messages m WHERE m.session_id = ?`},
	{"message_parts", `FROM src.message_parts p JOIN src.messages m ON m.id = p.message_id WHERE m.session_id = ? ORDER BY p.id`},
	{"llm_messages", `FROM src.llm_messages m WHERE m.session_id = ?`},
	{"session_state", `FROM src.session_state m WHERE m.session_id = ?`},
	{"confirmations", `FROM src.confirmations m WHERE m.session_id = ?`},
}

// mergeInserts are the statements, one per table of mergeTables, with the
// column lists filled in at run time (the source has this schema: Open
// migrated it).
var mergeInserts = map[string]string{
	"sessions":      `INSERT INTO sessions (%s) SELECT %s `,
	"messages":      `INSERT INTO messages (%s) SELECT %s `,
	"message_parts": `INSERT INTO message_parts (%s) SELECT %s `,
	"llm_messages":  `INSERT INTO llm_messages (%s) SELECT %s `,
	"session_state": `INSERT INTO session_state (%s) SELECT %s `,
	"confirmations": `INSERT INTO confirmations (%s) SELECT %s `,
}

// Merged reports whether the database at src was merged into s.
func (s *Store) Merged(ctx context.Context, src string) (bool, error) {
	abs, err := filepath.Abs(src)
	if err != nil {
		return false, invalidf("merge source %q: %v", src, err)
	}
	var at int64
	err = s.r.QueryRowContext(ctx, `SELECT merged_at FROM merged_stores WHERE source = ?`, abs).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// MergeFrom copies into s every session of the database at src that s
// lacks, then records src as merged: a later call returns Already, and a
// session deleted here does not come back. Each session is copied in its
// own transaction (another process waits at most one session's copy, and a
// crash leaves whole sessions); a failed one leaves src unrecorded, so the
// next call retries what is still missing. src is first brought to this
// schema (Open); a damaged src is moved aside as Open does and reported.
func (s *Store) MergeFrom(ctx context.Context, src string) (MergeResult, error) {
	s.tracks.rewrote() // it writes model tracks wholesale
	defer s.tracks.rewrote()
	var res MergeResult
	abs, err := filepath.Abs(src)
	if err != nil {
		return res, invalidf("merge source %q: %v", src, err)
	}
	if same, _ := filepath.Abs(s.path); same == abs {
		return res, invalidf("cannot merge %s into itself", abs)
	}
	if done, err := s.Merged(ctx, abs); err != nil || done {
		res.Already = done
		return res, err
	}
	if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		return res, notFoundf("database %s", abs)
	}
	old, err := Open(abs, Options{})
	if err != nil {
		return res, err
	}
	rec := old.Recovered()
	if err := old.Close(); err != nil {
		return res, err
	}
	if rec != nil {
		return res, rec
	}

	conn, err := s.w.Conn(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `ATTACH DATABASE ? AS src`, abs); err != nil {
		return res, fmt.Errorf("opening %s: %w", abs, err)
	}
	defer conn.ExecContext(context.Background(), `DETACH DATABASE src`)
	stmts, err := mergeStatements(ctx, conn)
	if err != nil {
		return res, err
	}
	ids, err := sourceSessions(ctx, conn)
	if err != nil {
		return res, err
	}
	var failed []error
	for _, id := range ids {
		copied, err := copySession(ctx, conn, stmts, id)
		switch {
		case err != nil:
			failed = append(failed, fmt.Errorf("session %s: %w", id, err))
		case copied:
			res.Copied++
		default:
			res.Present++
		}
	}
	if len(failed) > 0 {
		return res, fmt.Errorf("merging %s: %w", abs, errors.Join(failed...))
	}
	err = inTx(ctx, conn, func(tx *sql.Tx) error {
		// What this database already learned about an endpoint wins.
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO endpoints (base_url, model, tool_calling, updated_at)
			SELECT base_url, model, tool_calling, updated_at FROM src.endpoints`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO merged_stores (source, merged_at, sessions) VALUES (?, ?, ?)
			ON CONFLICT (source) DO NOTHING`, abs, s.nowMS(), res.Copied)
		return err
	})
	return res, err
}

// mergeStatements fills each insert with its table's columns, as this
// database has them (message_parts' rowid is left for SQLite to assign:
// the two databases numbered their parts independently).
func mergeStatements(ctx context.Context, conn *sql.Conn) (map[string]string, error) {
	var version int
	if err := conn.QueryRowContext(ctx, `PRAGMA src.user_version`).Scan(&version); err != nil {
		return nil, err
	}
	if version != SchemaVersion() {
		return nil, fmt.Errorf("the source database has schema version %d, not %d", version, SchemaVersion())
	}
	out := map[string]string{}
	for _, t := range mergeTables {
		rows, err := conn.QueryContext(ctx, `SELECT name FROM pragma_table_info(?, 'main')`, t.table)
		if err != nil {
			return nil, err
		}
		var cols, sel []string
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return nil, err
			}
			if t.table == "message_parts" && c == "id" {
				continue
			}
			cols = append(cols, `"`+c+`"`)
			alias := "m."
			if t.table == "message_parts" {
				alias = "p."
			}
			sel = append(sel, alias+`"`+c+`"`)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if len(cols) == 0 {
			return nil, fmt.Errorf("table %s has no columns", t.table)
		}
		out[t.table] = fmt.Sprintf(mergeInserts[t.table], strings.Join(cols, ", "), strings.Join(sel, ", ")) + t.from
	}
	return out, nil
}

// sourceSessions lists the source's sessions, parents before their
// children (a child's row needs its parent's).
func sourceSessions(ctx context.Context, conn *sql.Conn) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `WITH RECURSIVE tree(id, depth) AS (
			SELECT id, 0 FROM src.sessions WHERE parent_id IS NULL
			UNION ALL
			SELECT c.id, tree.depth + 1 FROM src.sessions c JOIN tree ON c.parent_id = tree.id
		) SELECT id FROM tree ORDER BY depth, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// copySession copies one session unless this database has it, in one
// transaction: another process merging the same source at the same time
// finds it present.
func copySession(ctx context.Context, conn *sql.Conn, stmts map[string]string, id string) (bool, error) {
	copied := false
	err := inTx(ctx, conn, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, id).Scan(&one)
		if err == nil {
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		for _, t := range mergeTables {
			if _, err := tx.ExecContext(ctx, stmts[t.table], id); err != nil {
				return fmt.Errorf("copying %s: %w", t.table, err)
			}
		}
		copied = true
		return nil
	})
	return copied, err
}

// inTx runs fn in one IMMEDIATE transaction on conn (the write connection).
func inTx(ctx context.Context, conn *sql.Conn, fn func(*sql.Tx) error) error {
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
