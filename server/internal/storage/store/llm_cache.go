package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// The two reads of a cached track's check and extension, run before every
// model request (txReads).
const (
	trackCharsBeforeSQL = `SELECT COALESCE(SUM(length(message)), 0) FROM llm_messages WHERE session_id = ? AND position < ?`
	trackFromSQL        = `SELECT position, message, source_message_id FROM llm_messages WHERE session_id = ? AND position >= ? ORDER BY position`
)

// trackCache keeps the decoded model track of the few sessions read most
// recently, so reading a track again decodes only the messages appended
// since (the pre-request compaction check reads it before every model
// request; decoding the whole track each time was a tenth of a read
// round's CPU and grows with the session).
//
// Appends extend a cached track; any other change to llm_messages
// (replace, merge, session delete) bumps rewrites, which drops every
// cached track. A reader also checks that the stored row at the cached
// last position is byte-identical to the one it cached, so a change this
// process did not make through those paths is still caught.
type trackCache struct {
	mu       sync.Mutex
	rewrites atomic.Uint64
	bytes    int
	sessions map[string]*cachedTrack
	order    []string // least recently read first
}

type cachedTrack struct {
	epoch   uint64
	entries []LLMEntry
	lastRaw string
	bytes   int
	// chars counts the characters of every cached row, as SQLite's
	// length() does: a reader compares the stored rows before the last
	// with chars minus the last row's, so a rewrite of older rows by
	// another process (a second window's sidecar on the same database)
	// that keeps the row count and the last row is still caught.
	chars int64
}

// Bounds: a cache never holds more than this many sessions or raw bytes.
const (
	trackCacheSessions = 4
	trackCacheBytes    = 32 << 20
)

// rewrote drops every cached track. Called before and after a non-append
// write commits: a reader whose read overlaps the write sees the epoch
// move and does not keep what it read.
func (c *trackCache) rewrote() {
	c.rewrites.Add(1)
	c.mu.Lock()
	c.sessions, c.order, c.bytes = nil, nil, 0
	c.mu.Unlock()
}

func (c *trackCache) get(sid string, epoch uint64) *cachedTrack {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.sessions[sid]
	if t == nil || t.epoch != epoch {
		return nil
	}
	return t
}

func (c *trackCache) put(sid string, t *cachedTrack) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rewrites.Load() != t.epoch {
		return
	}
	if old := c.sessions[sid]; old != nil {
		c.bytes -= old.bytes
		c.order = slices.DeleteFunc(c.order, func(s string) bool { return s == sid })
	}
	if t.bytes > trackCacheBytes {
		delete(c.sessions, sid)
		return
	}
	for len(c.order) > 0 && (len(c.order) >= trackCacheSessions || c.bytes+t.bytes > trackCacheBytes) {
		c.bytes -= c.sessions[c.order[0]].bytes
		delete(c.sessions, c.order[0])
		c.order = c.order[1:]
	}
	if c.sessions == nil {
		c.sessions = map[string]*cachedTrack{}
	}
	c.sessions[sid] = t
	c.order = append(c.order, sid)
	c.bytes += t.bytes
}

// cachedEntries reads the session's track in tx, reusing the cached prefix
// when it is still the stored one. The result is the caller's own copy.
func (s *Store) cachedEntries(ctx context.Context, tx *sql.Tx, sid string, epoch uint64) ([]LLMEntry, error) {
	t := s.tracks.get(sid, epoch)
	if t == nil || len(t.entries) == 0 {
		return s.fullEntries(ctx, tx, sid, epoch)
	}
	from := len(t.entries) - 1
	var before int64
	check, err := s.txRead(ctx, tx, trackCharsBeforeSQL)
	if err != nil {
		return nil, err
	}
	if err := check.QueryRowContext(ctx, sid, from).Scan(&before); err != nil {
		return nil, err
	}
	if before != t.chars-int64(utf8.RuneCountInString(t.lastRaw)) {
		return s.fullEntries(ctx, tx, sid, epoch)
	}
	tail, err := s.txRead(ctx, tx, trackFromSQL)
	if err != nil {
		return nil, err
	}
	rows, err := tail.QueryContext(ctx, sid, from)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	next := &cachedTrack{epoch: epoch, entries: t.entries[:len(t.entries):len(t.entries)], lastRaw: t.lastRaw, bytes: t.bytes, chars: t.chars}
	first := true
	for rows.Next() {
		var e LLMEntry
		var raw string
		if err := rows.Scan(&e.Position, &raw, &e.SourceMessageID); err != nil {
			return nil, err
		}
		if first {
			first = false
			if e.Position != from || raw != t.lastRaw {
				rows.Close()
				return s.fullEntries(ctx, tx, sid, epoch)
			}
			continue
		}
		if err := json.Unmarshal([]byte(raw), &e.Message); err != nil {
			return nil, err
		}
		next.entries = append(next.entries, e)
		next.lastRaw = raw
		next.bytes += len(raw)
		next.chars += int64(utf8.RuneCountInString(raw))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if first { // the track shrank: not an append
		return s.fullEntries(ctx, tx, sid, epoch)
	}
	s.tracks.put(sid, next)
	return copyEntries(next.entries), nil
}

func (s *Store) fullEntries(ctx context.Context, tx *sql.Tx, sid string, epoch uint64) ([]LLMEntry, error) {
	s.trackReads.Add(1)
	entries, raws, err := llmEntriesRaw(ctx, tx, sid)
	if err != nil {
		return nil, err
	}
	t := &cachedTrack{epoch: epoch, entries: entries}
	for _, r := range raws {
		t.bytes += len(r)
		t.chars += int64(utf8.RuneCountInString(r))
	}
	if n := len(raws); n > 0 {
		t.lastRaw = raws[n-1]
		s.tracks.put(sid, t)
	}
	return copyEntries(entries), nil
}

// copyEntries gives the caller entries it may change without changing the
// cache: the strings are immutable, the tool calls are the only slice.
func copyEntries(in []LLMEntry) []LLMEntry {
	out := slices.Clone(in)
	for i := range out {
		out[i].Message.ToolCalls = slices.Clone(out[i].Message.ToolCalls)
	}
	return out
}

// FullTrackReads counts the reads that decoded a whole model track (tests
// check the per-request path does not).
func (s *Store) FullTrackReads() uint64 { return s.trackReads.Load() }
