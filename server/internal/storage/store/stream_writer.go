package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// A tool round's statements on the message and its session (hotWrites).
const (
	touchMessageSQL  = `UPDATE messages SET updated_at = ? WHERE id = ?`
	statusMessageSQL = `UPDATE messages SET status = ?, usage = COALESCE(?, usage), updated_at = ? WHERE id = ?`
	touchSessionSQL  = `UPDATE sessions SET updated_at = ? WHERE id = ?`
)

// StreamWriter persists one assistant message while it streams.
//
// Text and reasoning deltas are buffered in memory and committed by an
// internal timer at most FlushInterval after they arrive. Everything else
// (tool calls, tool results, status changes, notices, LLM entries,
// Finalize) first flushes the buffer and then commits in the same
// transaction before returning, so a tool call is durable before the tool
// runs or waits for confirmation.
//
// Concurrency: intended for one goroutine per turn. All methods are
// nevertheless safe to call concurrently, and deltas never wait for disk
// I/O: the timer's flush copies the buffer under a short lock and writes
// outside it. A background flush failure is kept and returned by the next
// call; the data stays buffered and is retried by the next flush.
type StreamWriter struct {
	s         *Store
	sessionID string
	messageID string

	io sync.Mutex // held for a whole commit; orders the timer's flushes with synchronous commits

	mu    sync.Mutex // guards the fields below; never held by the timer during I/O
	parts []Part
	// tail holds the text of parts[len(parts)-1] while tailOpen, so that
	// appending a delta is amortised O(len(delta)) instead of recopying.
	tail     strings.Builder
	tailOpen bool
	// parts[dirtyFrom:] are newer in memory than on disk.
	dirtyFrom int
	timer     *time.Timer
	closed    bool
	flushErr  error
}

func newStreamWriter(s *Store, sessionID, messageID string, parts []Part) *StreamWriter {
	w := &StreamWriter{s: s, sessionID: sessionID, messageID: messageID, parts: parts, dirtyFrom: len(parts)}
	if n := len(parts); n > 0 && (parts[n-1].Kind == PartText || parts[n-1].Kind == PartReasoning) {
		w.tail.WriteString(parts[n-1].Text)
		w.tailOpen = true
	}
	return w
}

// MessageID is the assistant message being written.
func (w *StreamWriter) MessageID() string { return w.messageID }

// AppendText buffers a content delta.
func (w *StreamWriter) AppendText(delta string) error { return w.appendDelta(PartText, delta) }

// AppendReasoning buffers a reasoning delta.
func (w *StreamWriter) AppendReasoning(delta string) error {
	return w.appendDelta(PartReasoning, delta)
}

func (w *StreamWriter) appendDelta(kind PartKind, delta string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrWriterClosed
	}
	if delta == "" {
		return w.flushErr
	}
	n := len(w.parts)
	if !w.tailOpen || w.parts[n-1].Kind != kind {
		w.closeTail()
		w.parts = append(w.parts, Part{Kind: kind})
		w.tail.Reset()
		w.tailOpen = true
		n++
	}
	w.tail.WriteString(delta)
	w.dirtyFrom = min(w.dirtyFrom, n-1)
	if w.timer == nil {
		w.timer = time.AfterFunc(w.s.opts.FlushInterval, w.timerFlush)
	}
	return w.flushErr
}

// closeTail materialises the tail buffer into its part. Caller holds mu.
func (w *StreamWriter) closeTail() {
	w.syncTail()
	w.tailOpen = false
}

func (w *StreamWriter) syncTail() {
	if w.tailOpen {
		w.parts[len(w.parts)-1].Text = w.tail.String()
	}
}

func (w *StreamWriter) timerFlush() {
	w.io.Lock()
	defer w.io.Unlock()
	w.mu.Lock()
	w.timer = nil
	if w.closed || w.dirtyFrom >= len(w.parts) {
		w.mu.Unlock()
		return
	}
	w.syncTail()
	from := w.dirtyFrom
	snap := clonedParts(w.parts[from:])
	w.dirtyFrom = len(w.parts)
	w.mu.Unlock()

	// Streamed text is flushed for crash safety, not power-cut safety:
	// the next durable commit (a tool result, the final status) syncs it.
	err := w.s.writeTxRelaxed(context.Background(), func(tx *sql.Tx) error {
		return w.writeParts(context.Background(), tx, from, snap, nil)
	})

	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushErr = err
	if err != nil {
		w.dirtyFrom = min(w.dirtyFrom, from)
	}
}

func clonedParts(ps []Part) []Part {
	out := make([]Part, len(ps))
	for i, p := range ps {
		out[i] = clonePart(p)
	}
	return out
}

// writeParts upserts parts as indices from, from+1, ... and touches the
// message and its session, applying status when non-nil.
func (w *StreamWriter) writeParts(ctx context.Context, tx *sql.Tx, from int, parts []Part, status *messageUpdate) error {
	now := w.s.nowMS()
	var res sql.Result
	var err error
	if status != nil {
		var usage any
		if status.usage != nil {
			usage = string(mustJSON(status.usage))
		}
		res, err = w.s.txExec(ctx, tx, statusMessageSQL, status.status, usage, now, w.messageID)
	} else {
		res, err = w.s.txExec(ctx, tx, touchMessageSQL, now, w.messageID)
	}
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFoundf("message %q (its session was deleted?)", w.messageID)
	}
	for i, p := range parts {
		if err := w.s.upsertPart(ctx, tx, w.messageID, from+i, p); err != nil {
			return err
		}
	}
	_, err = w.s.txExec(ctx, tx, touchSessionSQL, now, w.sessionID)
	return err
}

type messageUpdate struct {
	status MessageStatus
	usage  *llm.Usage
}

// commit is the synchronous path: under both locks, it lets mutate derive
// the new part list from a materialised copy, writes every part from the
// lowest dirty or changed index, runs extra in the same transaction, and
// adopts the new parts only once the commit succeeded, so a failed call
// leaves the writer as it was and may be retried.
//
// durable selects writeTx, which waits for the disk, over writeTxRelaxed:
// a turn's durable points are its start (Store.BeginTurn), each tool
// result (the tool's effects are done and the model is told of them) and
// its end; what a turn records in between is synced by the next of them.
func (w *StreamWriter) commit(ctx context.Context, durable bool, mutate func(parts []Part) ([]Part, int, error), status *messageUpdate, extra func(ctx context.Context, tx *sql.Tx) error) error {
	w.io.Lock()
	defer w.io.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrWriterClosed
	}
	w.syncTail()
	next := clonedParts(w.parts)
	from := w.dirtyFrom
	if mutate != nil {
		var changed int
		var err error
		next, changed, err = mutate(next)
		if err != nil {
			return err
		}
		from = min(from, changed)
	}
	writeTx := w.s.writeTxRelaxed
	if durable {
		writeTx = w.s.writeTx
	}
	err := writeTx(ctx, func(tx *sql.Tx) error {
		if err := w.writeParts(ctx, tx, from, next[min(from, len(next)):], status); err != nil {
			return err
		}
		if extra != nil {
			return extra(ctx, tx)
		}
		return nil
	})
	if err != nil {
		return err
	}
	tailKind := PartKind("")
	if w.tailOpen {
		tailKind = w.parts[len(w.parts)-1].Kind
	}
	w.parts = next
	w.dirtyFrom = len(next)
	w.flushErr = nil
	// Text after a tool call or notice starts a new part.
	if w.tailOpen && (len(next) == 0 || next[len(next)-1].Kind != tailKind) {
		w.tailOpen = false
	}
	return nil
}

// Flush commits buffered deltas now.
func (w *StreamWriter) Flush(ctx context.Context) error {
	return w.commit(ctx, false, nil, nil, nil)
}

// AddToolCall flushes buffered text and commits the tool call before
// returning. An empty Status means pending.
func (w *StreamWriter) AddToolCall(ctx context.Context, tc ToolCall) error {
	if tc.Status == "" {
		tc.Status = ToolPending
	}
	p := Part{Kind: PartToolCall, ToolCall: &tc}
	if err := p.Validate(); err != nil {
		return err
	}
	return w.commit(ctx, false, func(parts []Part) ([]Part, int, error) {
		if findToolCall(parts, tc.ID) >= 0 {
			return nil, 0, invalidf("tool call %s already recorded", tc.ID)
		}
		return append(parts, p), len(parts), nil
	}, nil, nil)
}

// SetToolCallStatus commits a tool call's new status (e.g. running).
func (w *StreamWriter) SetToolCallStatus(ctx context.Context, toolCallID string, st ToolCallStatus) error {
	if !st.valid() {
		return invalidf("tool call status %q", st)
	}
	return w.commit(ctx, false, func(parts []Part) ([]Part, int, error) {
		i := findToolCall(parts, toolCallID)
		if i < 0 {
			return nil, 0, notFoundf("tool call %q in message %s", toolCallID, w.messageID)
		}
		parts[i].ToolCall.Status = st
		return parts, i, nil
	}, nil, nil)
}

// AddToolResult commits a tool's result, marks its call done or error, and
// appends llmMsgs (typically the tool's llm.Message) to the LLM track in
// the same transaction.
func (w *StreamWriter) AddToolResult(ctx context.Context, tr ToolResult, llmMsgs ...llm.Message) error {
	p := Part{Kind: PartToolResult, ToolResult: &tr}
	if err := p.Validate(); err != nil {
		return err
	}
	return w.commit(ctx, true, func(parts []Part) ([]Part, int, error) {
		i := findToolCall(parts, tr.ToolCallID)
		if i < 0 {
			return nil, 0, notFoundf("tool call %q in message %s", tr.ToolCallID, w.messageID)
		}
		for _, q := range parts {
			if q.Kind == PartToolResult && q.ToolResult.ToolCallID == tr.ToolCallID {
				return nil, 0, invalidf("tool call %s already has a result", tr.ToolCallID)
			}
		}
		parts[i].ToolCall.Status = ToolDone
		if !tr.OK {
			parts[i].ToolCall.Status = ToolError
		}
		return append(parts, p), i, nil
	}, nil, w.llmAppender(llmMsgs))
}

// AddNotice commits a user-visible notice.
func (w *StreamWriter) AddNotice(ctx context.Context, level NoticeLevel, text string) error {
	p := Part{Kind: PartNotice, Notice: &Notice{Level: level, Text: text}}
	if err := p.Validate(); err != nil {
		return err
	}
	return w.commit(ctx, false, func(parts []Part) ([]Part, int, error) {
		return append(parts, p), len(parts), nil
	}, nil, nil)
}

// CommitLLM flushes buffered text and appends msgs to the LLM track in one
// transaction, with this message as their source.
func (w *StreamWriter) CommitLLM(ctx context.Context, msgs ...llm.Message) error {
	return w.commit(ctx, false, nil, nil, w.llmAppender(msgs))
}

// CommitLLMCalls is CommitLLM of an assistant message together with
// AddToolCall of each of calls, in one transaction: the model's track and
// the chat get the message and its calls at once, before any of them
// runs, for one commit instead of one plus one a call. A call AddToolCall
// would refuse (no id or name, an id already recorded) is left out and
// reported in the error; the message and the other calls still commit.
func (w *StreamWriter) CommitLLMCalls(ctx context.Context, m llm.Message, calls ...ToolCall) error {
	var refused []error
	add := make([]Part, 0, len(calls))
	for _, tc := range calls {
		if tc.Status == "" {
			tc.Status = ToolPending
		}
		p := Part{Kind: PartToolCall, ToolCall: &tc}
		if err := p.Validate(); err != nil {
			refused = append(refused, err)
			continue
		}
		add = append(add, p)
	}
	err := w.commit(ctx, false, func(parts []Part) ([]Part, int, error) {
		from := len(parts)
		for _, p := range add {
			if findToolCall(parts, p.ToolCall.ID) >= 0 {
				refused = append(refused, invalidf("tool call %s already recorded", p.ToolCall.ID))
				continue
			}
			parts = append(parts, p)
		}
		return parts, from, nil
	}, nil, w.llmAppender([]llm.Message{m}))
	return errors.Join(append([]error{err}, refused...)...)
}

// Finalize flushes, records the final status and usage, appends llmMsgs,
// and closes the writer. On error/cancelled, tool calls still pending or
// running become cancelled so no UI shows them spinning forever.
func (w *StreamWriter) Finalize(ctx context.Context, st MessageStatus, usage *llm.Usage, llmMsgs ...llm.Message) error {
	if st != StatusDone && st != StatusError && st != StatusCancelled {
		return invalidf("final status %q (want done, error or cancelled)", st)
	}
	err := w.commit(ctx, true, func(parts []Part) ([]Part, int, error) {
		changed := len(parts)
		if st == StatusDone {
			return parts, changed, nil
		}
		for i, p := range parts {
			if p.Kind == PartToolCall && (p.ToolCall.Status == ToolPending || p.ToolCall.Status == ToolRunning) {
				p.ToolCall.Status = ToolCancelled
				changed = min(changed, i)
			}
		}
		return parts, changed, nil
	}, &messageUpdate{status: st, usage: usage}, w.llmAppender(llmMsgs))
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.closed = true
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.mu.Unlock()
	return nil
}

// Parts returns a copy of the message as the writer sees it, including
// deltas not yet flushed.
func (w *StreamWriter) Parts() []Part {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.syncTail()
	return clonedParts(w.parts)
}

func (w *StreamWriter) llmAppender(msgs []llm.Message) func(ctx context.Context, tx *sql.Tx) error {
	if len(msgs) == 0 {
		return nil
	}
	msgs = slices.Clone(msgs)
	return func(ctx context.Context, tx *sql.Tx) error {
		_, err := w.s.appendLLM(ctx, tx, w.sessionID, w.messageID, msgs)
		return err
	}
}

func findToolCall(parts []Part, id string) int {
	for i, p := range parts {
		if p.Kind == PartToolCall && p.ToolCall.ID == id {
			return i
		}
	}
	return -1
}
