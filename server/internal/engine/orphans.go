package engine

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/store"
)

// Two editor windows on one workspace share the session database, each
// through its own sidecar (store/owner.go). What a window's process left
// pending is its own while it runs: another process never finalises or
// resumes it. What a process that is gone left pending is settled by the
// first process that looks:
//   - at start-up, as after a crash: a run parked on a question is asked
//     again (answering resumes it), any other run is cancelled and the
//     session offers "Continue";
//   - a process still alive at start-up that exits within reloadGrace is
//     taken to be this window's previous sidecar (a reload stops it while
//     this one starts): its runs are recovered as at start-up;
//   - when a session is opened or written to (settleOrphans): its run is
//     cancelled with a notice in the transcript and its questions closed.
//     That window is closed; nobody can answer what it asked.

// reloadGrace is how long start-up waits for a live owner of pending runs
// to go away before leaving its runs to it (or to settleOrphans). A
// variable for tests.
var reloadGrace = 15 * time.Second

// recoverInterrupted recovers the runs every gone process left pending
// and watches the live owners for a reload's overlap.
func (e *Engine) recoverInterrupted(ctx context.Context) error {
	live, err := e.recoverRuns(ctx, func(owner string) bool { return !e.Store.OwnerAlive(owner) })
	if reloadGrace <= 0 {
		return err
	}
	e.mu.Lock()
	e.watching = live
	e.mu.Unlock()
	for owner := range live {
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			// Until its runs are recovered here, opening one of its
			// sessions must not settle them as a closed window's.
			defer func() {
				e.mu.Lock()
				delete(e.watching, owner)
				e.mu.Unlock()
			}()
			wctx, cancel := context.WithTimeout(e.baseCtx, reloadGrace)
			defer cancel()
			if e.Store.WaitOwnerGone(wctx, owner) != nil {
				return
			}
			if _, err := e.recoverRuns(e.baseCtx, func(o string) bool { return o == owner }); err != nil {
				e.log.Warn("recovering the runs of a stopped sidecar", zap.Error(err))
			}
		}()
	}
	return err
}

// recoverRuns finalises what the owners gone() selects left pending: their
// assistant messages become "cancelled" with a notice and their open
// questions are closed, and the sessions are flagged so the UI offers
// "Continue". The exception is a run that was waiting on a question to the
// user: its message stays pending and the question is asked again, so
// answering it resumes the run where it stopped. It returns the other
// processes, alive, that have runs pending.
func (e *Engine) recoverRuns(ctx context.Context, gone func(owner string) bool) (map[string]bool, error) {
	pending, err := e.Store.PendingMessages(ctx)
	if err != nil {
		return nil, err
	}
	open, err := e.Store.OpenConfirmations(ctx)
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	claimed := map[string]string{} // session → the owner its run was taken from
	keep := map[string]bool{}
	for _, m := range pending {
		if m.Owner == e.Store.Owner() {
			continue
		}
		if !gone(m.Owner) {
			if e.Store.OwnerAlive(m.Owner) {
				live[m.Owner] = true
			}
			continue
		}
		if ok, err := e.Store.ClaimRun(ctx, m.ID, m.Owner); err != nil || !ok {
			continue // finished meanwhile, or another process took it
		}
		claimed[m.SessionID] = m.Owner
		if p := e.findParked(ctx, m, open); p != nil {
			e.park(p)
			keep[p.confirm.ID] = true
			continue
		}
		e.finishOrphan(ctx, m, e.Tr("This run was interrupted because GoVibe's server stopped. Send \"continue\" to resume."))
	}
	e.closeOrphanQuestions(ctx, open, claimed, keep, gone)
	return live, nil
}

// closeOrphanQuestions cancels the open questions whose asker is gone:
// those of the runs just claimed (now this process's, unless kept to be
// asked again) and those a gone owner left.
func (e *Engine) closeOrphanQuestions(ctx context.Context, open []store.Confirmation, claimed map[string]string, keep map[string]bool, gone func(string) bool) {
	for _, c := range open {
		if keep[c.ID] || c.Owner == e.Store.Owner() {
			continue
		}
		from := c.Owner
		if claimed[c.SessionID] == c.Owner {
			from = e.Store.Owner()
		} else if !gone(c.Owner) {
			continue
		}
		if _, err := e.Store.CancelConfirmation(ctx, c.ID, from); err != nil {
			e.log.Warn("closing a question left open", zap.String("confirmation", c.ID), zap.Error(err))
		}
	}
}

// finishOrphan ends a claimed run: a notice saying why, status cancelled,
// and the session offers "Continue".
func (e *Engine) finishOrphan(ctx context.Context, m store.PendingMessage, notice string) {
	w, err := e.Store.ResumeWriter(ctx, m.ID)
	if err != nil {
		return
	}
	_ = w.AddNotice(ctx, store.NoticeWarn, notice)
	_ = w.Finalize(ctx, store.StatusCancelled, nil)
	e.mu.Lock()
	e.interrupted[m.SessionID] = true
	e.mu.Unlock()
}

// settleOrphans settles what a window that is gone left pending in the
// session, before the session is shown or gets a new turn: the run is
// cancelled with a notice in its transcript and its questions are closed,
// so no question waits for a window that will never answer it. A run of a
// window still open is left to that window.
func (e *Engine) settleOrphans(ctx context.Context, sid string) {
	pending, err := e.Store.PendingMessagesOf(ctx, sid)
	if err != nil {
		return
	}
	open, err := e.Store.PendingConfirmations(ctx, sid)
	if err != nil {
		return
	}
	mine := e.Store.Owner()
	gone := func(owner string) bool {
		e.mu.Lock()
		watched := e.watching[owner]
		e.mu.Unlock()
		return owner != mine && !watched && !e.Store.OwnerAlive(owner)
	}
	claimed := map[string]string{}
	for _, m := range pending {
		if !gone(m.Owner) {
			continue
		}
		if ok, err := e.Store.ClaimRun(ctx, m.ID, m.Owner); err != nil || !ok {
			continue
		}
		claimed[sid] = m.Owner
		notice := e.Tr("The window that ran this turn was closed, so the turn stopped here. Send \"continue\" to resume.")
		for _, c := range open {
			if c.Owner == m.Owner {
				notice = e.Tr("The window that ran this turn was closed, so its question was cancelled and the turn stopped here. Send \"continue\" to resume.")
				break
			}
		}
		e.finishOrphan(ctx, m, notice)
	}
	if len(claimed) == 0 && !anyGone(open, gone) {
		return
	}
	e.closeOrphanQuestions(ctx, open, claimed, nil, gone)
}

func anyGone(open []store.Confirmation, gone func(string) bool) bool {
	for _, c := range open {
		if gone(c.Owner) {
			return true
		}
	}
	return false
}
