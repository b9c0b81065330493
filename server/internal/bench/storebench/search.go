package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/storage/store"
)

// Search at scale (issue 17): session/search over many sessions and
// messages answers within 50 ms. The corpus is written straight into the
// store's own schema in one transaction (through store.Open's migrations
// and the FTS triggers), because a million AppendMessage fsyncs would take
// longer than the whole benchmark run. The reference, measured in the same
// run, is the same query answered by scanning every text part (what search
// costs without the index), on the same clock as the query (CPU time).
// The shapes with terms under three characters, which the trigram index
// reaches only through the trigrams starting with them (store's
// search_short.go), include such terms with no hit, alone and beside
// common and rare ones, and in CJK: each was a scan of every text part
// (about 0.4 s of CPU at 1M messages) before.

var vocabulary = strings.Fields(`the agent edits server files and runs tests while the
reviewer reads diffs snapshots restore workspace change plan todo step compaction
summary model prompt token stream event session store index query result error
build lint format commit branch merge rebase config setting watcher cache`)

func runSearch(sessions, messages int, keep string) error {
	path := keep
	if path == "" {
		dir, err := os.MkdirTemp("", "storebench-search")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "search.db")
	}
	start := time.Now()
	how := "reused"
	if _, err := os.Stat(path); err != nil {
		s, err := store.Open(path, store.Options{})
		if err != nil {
			return err
		}
		s.Close()
		if err := bulkFill(path, sessions, messages); err != nil {
			return fmt.Errorf("fill: %w", err)
		}
		how = "written"
	}
	// Opening runs the store's migrations, which a reused corpus may need.
	s, err := store.Open(path, store.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	fi, _ := os.Stat(path)
	fmt.Printf("\nsession/search: %d sessions, %d messages (%s and opened in %v, %d MB with the trigram index)\n",
		sessions, messages, how, time.Since(start).Round(time.Second), fi.Size()>>20)
	raw, err := sql.Open("sqlite", path+"?_pragma=query_only(1)")
	if err != nil {
		return err
	}
	defer raw.Close()
	ctx := context.Background()
	queries := []struct{ name, q, session string }{
		{"rare term (~10 hits)", "needle42", ""},
		{"common term (every message)", "session", ""},
		{"two terms", "reviewer snapshots", ""},
		{"short term (<3 chars, no index)", "qz", ""},
		{"short and common term", "qz session", ""},
		{"no hit", "zzzyyyxxx", ""},
		{"short term, no hit", "zq", ""},
		{"one-character term, no hit", "ж", ""},
		{"common one-character term", "e", ""},
		{"short no-hit term and a common one", "zq session", ""},
		{"short no-hit term and a rare one", "zq needle42", ""},
		{"rare and common short terms", "qz e", ""},
		{"no-hit and common short terms", "zq e", ""},
		{"CJK two characters (one message in 5,000)", "搜索", ""},
		{"CJK one character (one message in 5,000)", "搜", ""},
		{"CJK two characters, no hit", "索引", ""},
		{"common term within one session", "session", fmt.Sprintf("s%05d", sessions/2)},
	}
	for _, c := range queries {
		var ts timings
		var hits []store.SearchHit
		for i := 0; i < 5; i++ {
			if err := ts.time(func() (err error) {
				hits, err = s.Search(ctx, c.q, store.SearchOptions{Limit: 20, SessionID: c.session})
				return err
			}); err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
		}
		d := ts.judged()
		// The reference: a scan of every text part for the first term.
		var ref timings
		var n int
		term := strings.Fields(c.q)[0]
		if err := ref.time(func() error {
			return raw.QueryRowContext(ctx, `SELECT count(*) FROM message_parts WHERE kind = 'text' AND instr(lower(text), lower(?)) > 0`, term).Scan(&n)
		}); err != nil {
			return err
		}
		scan := ref.judged()
		check(fmt.Sprintf("  %s: %d hits", c.name, len(hits)), d < 50*time.Millisecond,
			fmt.Sprintf("%s (%.2fx scan)", ts.figure(), float64(d)/float64(scan)), "cpu < 50 ms")
	}
	return nil
}

// bulkFill writes sessions × (messages/sessions) user and assistant
// messages of one text part each (sizes below), drawn from a fixed
// vocabulary with a fixed seed; "needle42" appears in about ten of them,
// "qz" in about one in a thousand and "搜索功能" in one in five thousand.
func bulkFill(path string, sessions, messages int) error {
	db, err := sql.Open("sqlite", path+"?_pragma=foreign_keys(0)&_pragma=synchronous(OFF)&_pragma=journal_mode(WAL)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	sessStmt, err := tx.Prepare(`INSERT INTO sessions(id, title, created_at, updated_at, message_count, last_seq) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	msgStmt, err := tx.Prepare(`INSERT INTO messages(id, session_id, seq, role, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'done', ?, ?)`)
	if err != nil {
		return err
	}
	partStmt, err := tx.Prepare(`INSERT INTO message_parts(message_id, idx, kind, text) VALUES (?, 0, 'text', ?)`)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewSource(17))
	per := messages / sessions
	now := time.Now().UnixMilli()
	needleEvery := messages / 10
	var b strings.Builder
	for si := 0; si < sessions; si++ {
		sid := fmt.Sprintf("s%05d", si)
		if _, err := sessStmt.Exec(sid, "session "+sid, now, now+int64(si), per, per); err != nil {
			return err
		}
		for mi := 0; mi < per; mi++ {
			n := si*per + mi
			b.Reset()
			// Users write a line or a short paragraph, the agent a few
			// paragraphs: 40-300 bytes and 150-1,500 bytes, 450 on average.
			size := 40 + rng.Intn(261)
			if mi%2 == 1 {
				size = 150 + rng.Intn(1351)
			}
			for b.Len() < size {
				b.WriteString(vocabulary[rng.Intn(len(vocabulary))])
				b.WriteByte(' ')
			}
			if needleEvery > 0 && n%needleEvery == 7 {
				b.WriteString("needle42 ")
			}
			if n%1000 == 3 {
				b.WriteString("qz ")
			}
			if n%5000 == 11 {
				b.WriteString("搜索功能 ")
			}
			mid := fmt.Sprintf("%s-m%d", sid, mi)
			role := "user"
			if mi%2 == 1 {
				role = "assistant"
			}
			if _, err := msgStmt.Exec(mid, sid, mi+1, role, now, now+int64(n)); err != nil {
				return err
			}
			if _, err := partStmt.Exec(mid, b.String()); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}
