package recovery

import (
	"context"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/sessionstate"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// Store is what recovery reads and writes of the session database: the
// owner lease, the runs and questions left pending, and the model track.
type Store interface {
	Owner() string
	OwnerAlive(owner string) bool
	WaitOwnerGone(ctx context.Context, owner string) error
	PendingMessages(ctx context.Context) ([]store.PendingMessage, error)
	PendingMessagesOf(ctx context.Context, sid string) ([]store.PendingMessage, error)
	OpenConfirmations(ctx context.Context) ([]store.Confirmation, error)
	PendingConfirmations(ctx context.Context, sid string) ([]store.Confirmation, error)
	ClaimRun(ctx context.Context, messageID, from string) (bool, error)
	CancelConfirmation(ctx context.Context, id, from string) (bool, error)
	ResumeWriter(ctx context.Context, messageID string) (*store.StreamWriter, error)
	GetMessage(ctx context.Context, id string) (store.Message, error)
	LLMEntries(ctx context.Context, sid string) ([]store.LLMEntry, error)
	// KV is the session state a parked run's turn number is read from.
	sessionstate.KV
}

// Dialogs is the confirmation broker a parked run's question is restored
// on.
type Dialogs interface {
	// Restore shows c again; onAnswer runs when the user answers it.
	Restore(c approval.Confirm, onAnswer func(approval.Answer))
	// Withdraw closes c unanswered; false when the answer won.
	Withdraw(id string) bool
}

// Questions expires a restored ask_human question on its original
// timeout.
type Questions interface {
	ExpireRestored(c approval.Confirm, calls []llm.ToolCall, asked time.Time)
}

// Events tells the clients about a parked run ended without its answer.
type Events interface {
	// ToolResult is a call's result card (status error).
	ToolResult(sid, turnID, messageID string, call llm.ToolCall, output string)
	// TurnCancelled ends the turn's view as cancelled.
	TurnCancelled(sid, turnID, messageID string)
}

// Deps are the collaborators of a Service.
type Deps struct {
	Store     Store
	Dialogs   Dialogs
	Questions Questions
	Events    Events
	// Resume starts the resumed run with the user's answer (the turn
	// runner's; it claims p with Take). Called from the broker; returns
	// at once.
	Resume func(p *Parked, a approval.Answer)
	// Changed tells the clients the session's summary changed.
	Changed func(ctx context.Context, sid string)
	// ParseBTW strips a side conversation's /btw from a user message.
	ParseBTW func(text string) (bool, string)
	// Busy is what Release returns when the answer won the race and the
	// run is resuming (the engine's ErrBusy).
	Busy error
	// FreeTag is the sub-agent tag of the main run (the engine's TagFree).
	FreeTag string
	Tr      func(string, ...any) string
	Log     *zap.Logger
	// Base is the process's context; Go runs f on the process's wait
	// group.
	Base context.Context
	Go   func(f func())
}

// Service keeps the runs recovered from gone processes: the sessions
// whose run was cut off, the runs parked on a question, and the live
// processes watched for a reload.
type Service struct {
	d Deps

	mu sync.Mutex
	// interrupted sessions had a run cut off by a previous process.
	interrupted map[string]bool
	// parked are runs a previous process left waiting on a question to
	// the user; answering resumes them (parked.go).
	parked map[string]*Parked
	// watching are the other processes alive at start-up whose runs this
	// one recovers if they stop within ReloadGrace (orphans.go).
	watching map[string]bool
}

// New returns a Service with nothing recovered yet; Recover recovers.
func New(d Deps) *Service {
	if d.Log == nil {
		d.Log = zap.NewNop()
	}
	return &Service{d: d, interrupted: map[string]bool{}, parked: map[string]*Parked{}}
}

// Interrupted says a previous process cut off the session's run (the
// session offers "Continue").
func (s *Service) Interrupted(sid string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.interrupted[sid]
}

// Continued clears the session's interrupted flag: a new turn started.
func (s *Service) Continued(sid string) {
	s.mu.Lock()
	delete(s.interrupted, sid)
	s.mu.Unlock()
}

// Shown is the turn id of the run parked in the session, "" when none.
func (s *Service) Shown(sid string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.parked[sid]; p != nil {
		return p.TurnID
	}
	return ""
}

// Take claims p for resuming: false when it is no longer the session's
// parked run (Release took it first).
func (s *Service) Take(p *Parked) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parked[p.SessionID] != p {
		return false
	}
	delete(s.parked, p.SessionID)
	return true
}
