// Package store persists GoVibe conversations in one embedded SQLite file per
// workspace, so that they survive a crashed sidecar and power loss.
//
// Durability contract: every exported call that returns a nil error has
// committed its writes, with one documented exception: the text and
// reasoning deltas buffered by a StreamWriter, which reach the disk at most
// FlushInterval later (or sooner, at the next tool call, tool result, notice
// or Finalize). A crash therefore loses at most the last FlushInterval of
// streamed text and never a tool call, a tool result or a status change.
//
// Concurrency: a Store is safe for concurrent use by any number of
// goroutines. Writes are serialised through a single connection (SQLite has
// one writer anyway, and queueing in-process avoids SQLITE_BUSY between our
// own goroutines); reads use a separate pool and, thanks to WAL, never wait
// for writers. Other processes opening the same file are tolerated through
// the busy timeout.
//
// # Two tracks
//
// Each session has two tracks: the UI track (messages and their parts) and the
// model track (llm_messages). A turn commits the user message and a pending
// assistant record before the model is called; deltas are coalesced (at most
// 500 ms); each tool call is committed before it runs and each result (UI part
// and model message in one transaction) when it arrives. Each tool result
// stores how long the tool ran (duration_ms), so a reopened session's cards
// keep their durations. Each llm_messages row keeps its token estimate
// (tokens, filled in once by Store.TrackTokens, recounted only for rows a
// compaction rewrote), so the context in use is a sum: opening a session never
// re-estimates its whole history.
// A read of the model track decodes only the rows appended since this Store
// last read it (llm_cache.go: the few sessions read last, bounded); a replace,
// merge or session delete made through this Store drops the cached tracks.
//
// # Durability in a turn
//
// Commits wait for the disk (synchronous=FULL) at a turn's durable points
// only: its start (the user's message), each tool result and its end
// (StreamWriter.Finalize), plus everything outside a turn (sessions, renames,
// imports, confirmations, state other than accounting). What a turn records in
// between (streamed-text flushes, the assistant message with its tool calls,
// one commit by StreamWriter.CommitLLMCalls before any of them runs, their
// running status, notices) and the usage accounting
// (written after every model request) commit at synchronous=NORMAL on the same
// connection (Store.writeTxRelaxed, SetStateRelaxed,
// sessionstate.Key.relaxed). In WAL mode NORMAL loses nothing when the process
// crashes (the frames are in the OS's cache; the SIGKILL tests in
// crash_test.go stay green) and never corrupts the database; a power cut can
// drop the NORMAL commits made since the last FULL one, and since the WAL is
// synced in order the next FULL commit makes them durable with it. So a power
// cut costs at most a running turn's progress since its last tool result (the
// turn is then recovered as interrupted, as after a crash) or the accounting
// of the turn that just ended, never an acknowledged tool result or a finished
// turn. A turn went from 7 fsyncs (no tool) and 13 (one tool call, two
// requests) to 3 and 4. TestRelaxedCommitsKeepLaterCommitsDurable checks that
// the connection is back at FULL after every relaxed commit, failed ones
// included (a connection whose reset fails is discarded).
//
// # Checking the file at open
//
// Open runs PRAGMA quick_check, so damage is found (and the file moved aside,
// the user told) before a turn reads a broken page. The check reads every
// page: a 1M-message history (1.8 GB) took 2 min to open. A database this
// process closed cleanly needs no check (WAL, FULL commits), so Close leaves
// <db>-clean with the file's size and modification time once the WAL is
// checkpointed away, and Open removes it and skips the check for a database
// over 1 MB only when that stamp still matches (cleanclose.go). A crash, a
// kill, another process holding the file or any write since the close means a
// check; small databases are always checked (under 1 MB: a 5,000-message
// session of 20 MB took 0.3-2.6 s to check, before the editor could show
// it). At 1M messages, open went from 2m8s to 0 s (storebench's "reused and
// opened in").
//
// # Who wrote a user message
//
// The engine sends the model some user-role messages of its own: a todo
// agent's prompt, the scheduler's closing prompt, a resume prompt, a button's
// "continue" (Run plan, the todo panel's Resume, reconcile Approve and Resume)
// and a sub-agent's task in its child session. Each is marked where it is
// written (Message.Origin, column messages.origin: plan-step, plan-final,
// plan-resume, control, subagent-task; "" is the person) and carried on the
// wire as Message.origin, both on the live message event and in session/load.
// Stores from before the column (schema 3) are classified once, by migration
// 0005: the scheduler's fixed prompt texts under an executor:N/evaluator:N (or
// free) tag and the first user message of a sub-agent's child session get
// their origin; a button's old "continue" cannot be told from a typed one and
// stays the person's (origin_backfill_test.go, fixture
// testdata/v3_plan_session.sql).
//
// # Hand-written SQL
//
// SQL is hand-written, not generated (sqlc was considered, as crush uses it).
// Search builds its WHERE clause at run time (FTS5 MATCH for terms of three
// characters or more, LIKE below that), which sqlc cannot express; sqlc's
// SQLite engine does not allow the table name left of MATCH (sqlc PR #2531),
// which is how the trigram index is queried; and the hot reads go through a
// prepared-statement cache keyed by the SQL text (stmt_cache.go), as do a
// tool round's writes (write_stmts.go: prepared once on the write
// connection when the store opens), which generated code would bypass. About fifty statements do not pay for a
// generator, its pinned binary and a freshness test. What keeps them honest
// instead: each table's queries live in the file named for it (sessions.go,
// messages.go, llm_track.go, state.go, confirmations.go, endpoints.go); the
// only other writers are operations that must change several tables in one
// transaction, each in a file named for it (turn.go, stream_writer.go,
// export.go, recovery.go). TestSQLStaysWithItsTable enforces that map, and
// TestEveryStoreMethodHasATest fails when an exported Store or StreamWriter
// method has no test in the package.
//
// # Search
//
// session/search reads message_text_fts, an FTS5 index with the trigram
// tokenizer (any script, CJK included; every term is a case-insensitive
// substring) kept by triggers on text parts. A global search reads the newest
// 500 matches (FTS5 streams rowids newest first) with their text and ranks
// them by bm25 in Go (search_rank.go), then looks up the messages of only the
// parts it returns. A search within one session ranks all of that session's
// matches, read from the session's own text parts (the indexed terms matched
// in Go as the index matches them): 5 ms of CPU for a common term at 1M
// messages, where reading the index's matches took 0.9 s. FTS5's own rank is
// not used: to weigh each term it counts every document holding it (250 of the
// 260 ms of a query at 100k messages), and within the window every candidate
// holds every term anyway.
//
// A term under three characters, which the trigram index cannot look up as it
// is, is found through it all the same (search_short.go): a text holding it
// holds an indexed trigram that starts with it, unless it sits in the text's
// last two characters. A global query with such a term scans the newest 5,000
// parts, and when they hold fewer than the limit, lists the older candidates
// of its rarest short term: the parts holding any trigram that starts with it,
// read from the index's sorted terms through the fts5vocab table
// message_text_vocab, plus the parts whose last one or two characters hold it,
// through the expression indexes message_parts_tail1/tail2 on
// lower(substr(text, -1|-2)) (migration 0006, which also covers texts under
// three characters). Every candidate is then checked with the term's LIKE,
// newest first, so the hits are exactly the scan's (ASCII case folded, other
// characters exact). A query with a short term beside indexed ones ranks only
// the newest Limit matches, not 500, and when its indexed terms match 2,000
// parts or more it is driven by its short terms instead, the indexed ones
// checked in Go (1 µs a row against 3 µs through the index). A short term too
// common to look up (in more than one in 20 window parts while another short
// term is rarer, or starting over 1,000 trigrams) is still scanned.
// TestSearchDriversAgreeWithTheIndex and TestSearchShortTermsThroughTheIndex
// compare every path with the index and with a LIKE over every part (Latin,
// Cyrillic, CJK, mixed case, %, _, quotes, terms at a text's start, middle and
// end).
//
// A word index (unicode61) beside the trigram one was measured and not added:
// matching words or word prefixes would stop "config" finding "ParseConfig".
// The server caps queries at 1 KB. make bench (storebench) measures seventeen
// query shapes over 100k messages (1M with BENCH_FULL=1) against a full scan
// in the same run, judged on CPU time; at 1M messages every shape takes under
// 16 ms of CPU.
//
// # Session list
//
// session/list shows each session's cost; it reads every listed session's
// usage state in one query (Store.StateOfSessions through
// sessionstate.GetMany, usage.Meter.OfSessions), where it was one lookup per
// session, 1,000 for a full page.
package store
