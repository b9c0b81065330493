package usage

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// Context sources: the provider's reported usage, or the local estimate
// (before the first request, and after a compaction until the next one).
const (
	SourceProvider = "provider"
	SourceEstimate = "estimate"
)

// Session is the accumulated usage of every model request a session
// made (turns, sub-agents, reviewers, compactions), with its cost
// (Usage.Cost).
type Session struct {
	llm.Usage
	Requests int `json:"requests"`
}

// Turn is what one turn consumed, compaction requests included.
type Turn struct {
	Turn int `json:"turn"`
	Session
}

// Context is the chat header's bar: the context the next request will
// carry against the window, plus the session's cost and token breakdown.
type Context struct {
	UsedTokens   int64
	WindowTokens int64
	// Source says where UsedTokens comes from (SourceProvider/SourceEstimate).
	Source  string
	Session Session
	// Profile names the session's own model choice (/model or the
	// header's pick: its govibe.models name, else the model id), empty
	// while the session follows govibe.model; the header shows it with the
	// window it brings.
	Profile string
}

// State is a session's persisted accounting.
type State struct {
	Session       Session `json:"session"`
	ContextTokens int64   `json:"contextTokens"`
	ContextSource string  `json:"contextSource"`
}

// Store is what the accounting needs: session state, and sessions'
// parents to find a child's root. *store.Store implements it.
type Store interface {
	sessionstate.KV
	sessionstate.BatchKV
	GetSession(ctx context.Context, id string) (store.Session, error)
}

// Meter records and reads one engine's accounting. Safe for concurrent
// use: each session's read-modify-write is serialised, so concurrent
// requests (a background compaction during a turn) never lose an update.
type Meter struct {
	store Store
	log   *zap.Logger
	locks sessionstate.Locks
	// misses is the last request of each session and purpose, to say why
	// the next one missed the cache.
	misses *misses
}

// New returns a meter over s.
func New(s Store, log *zap.Logger) *Meter {
	if log == nil {
		log = zap.NewNop()
	}
	return &Meter{store: s, log: log, misses: newMisses()}
}

// Load returns the session's accounting (zero when it has none).
func (m *Meter) Load(ctx context.Context, sid string) State {
	st, _ := m.load(ctx, sid)
	return st
}

// load is Load with the stored bytes it decoded.
func (m *Meter) load(ctx context.Context, sid string) (State, []byte) {
	var st State
	raw, ok, err := sessionstate.Get(ctx, m.store, sid, sessionstate.Usage)
	if err != nil || !ok {
		return st, nil
	}
	_ = json.Unmarshal(raw, &st)
	return st, raw
}

// Of returns a session's accumulated usage.
func (m *Meter) Of(ctx context.Context, sid string) Session { return m.Load(ctx, sid).Session }

// OfSessions returns the accumulated usage of each of sids (zero for a
// session with none) in one store query: a session list shows every
// session's cost, and a Load per session made a 1,000-session list cost
// 1,000 queries.
func (m *Meter) OfSessions(ctx context.Context, sids []string) (map[string]Session, error) {
	raw, err := sessionstate.GetMany(ctx, m.store, sids, sessionstate.Usage)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Session, len(raw))
	for sid, b := range raw {
		var st State
		if json.Unmarshal(b, &st) == nil {
			out[sid] = st.Session
		}
	}
	return out, nil
}

// Update applies f to the session's accounting and persists it.
func (m *Meter) Update(sid string, f func(*State)) {
	l := m.locks.Of(sid)
	l.Lock()
	defer l.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, raw := m.load(ctx, sid)
	f(&st)
	b, _ := json.Marshal(st)
	if raw != nil && bytes.Equal(b, raw) {
		// Nothing changed (a context figure set again): a commit per
		// request for nothing was a share of a read round's CPU.
		return
	}
	if err := sessionstate.Set(ctx, m.store, sid, sessionstate.Usage, b); err != nil {
		m.log.Warn("persisting usage", zap.String("session", sid), zap.Error(err))
	}
}

// Compacted notes that the session's history was just summarised: its
// next request's changed prefix is named a compaction, not a rewrite.
func (m *Meter) Compacted(sid string) { m.misses.compaction(sid) }

// SetContext records the context size the next request will carry and
// where the figure comes from.
func (m *Meter) SetContext(sid string, tokens int64, source string) {
	m.Update(sid, func(st *State) { st.ContextTokens, st.ContextSource = tokens, source })
}

// Root is the top-level session a (possibly hidden child) session
// belongs to.
func (m *Meter) Root(sid string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for depth := 0; depth < 8; depth++ {
		s, err := m.store.GetSession(ctx, sid)
		if err != nil || s.ParentID == "" {
			return sid
		}
		sid = s.ParentID
	}
	return sid
}

// FinishTurn records what the turn consumed (the session's usage since
// before) under its turn number; turn 0 (a compaction outside a turn) is
// returned but not recorded.
func (m *Meter) FinishTurn(ctx context.Context, sid string, turn int, before Session) Turn {
	now := m.Of(ctx, sid)
	tu := Turn{Turn: turn, Session: Session{
		Usage:    now.Usage.Sub(before.Usage),
		Requests: now.Requests - before.Requests,
	}}
	if turn > 0 {
		b, _ := json.Marshal(tu)
		if err := sessionstate.Set(ctx, m.store, sid, sessionstate.TurnUsage(turn), b); err != nil {
			m.log.Warn("persisting turn usage", zap.String("session", sid), zap.Error(err))
		}
	}
	return tu
}

// TurnOf returns a finished turn's recorded usage.
func (m *Meter) TurnOf(ctx context.Context, sid string, turn int) (Turn, bool) {
	raw, ok, err := sessionstate.Get(ctx, m.store, sid, sessionstate.TurnUsage(turn))
	if err != nil || !ok {
		return Turn{}, false
	}
	var tu Turn
	return tu, json.Unmarshal(raw, &tu) == nil
}
