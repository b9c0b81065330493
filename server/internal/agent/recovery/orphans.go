package recovery

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/storage/store"
)

// ReloadGrace is how long start-up waits for a live owner of pending runs
// to go away before leaving its runs to it (or to Settle). A variable for
// tests.
var ReloadGrace = 15 * time.Second

// Recover recovers the runs every gone process left pending and watches
// the live owners for a reload's overlap.
func (s *Service) Recover(ctx context.Context) error {
	st := s.d.Store
	live, err := s.recoverRuns(ctx, func(owner string) bool { return !st.OwnerAlive(owner) })
	if ReloadGrace <= 0 {
		return err
	}
	s.mu.Lock()
	s.watching = live
	s.mu.Unlock()
	for owner := range live {
		s.d.Go(func() {
			// Until its runs are recovered here, opening one of its
			// sessions must not settle them as a closed window's.
			defer func() {
				s.mu.Lock()
				delete(s.watching, owner)
				s.mu.Unlock()
			}()
			wctx, cancel := context.WithTimeout(s.d.Base, ReloadGrace)
			defer cancel()
			if st.WaitOwnerGone(wctx, owner) != nil {
				return
			}
			if _, err := s.recoverRuns(s.d.Base, func(o string) bool { return o == owner }); err != nil {
				s.d.Log.Warn("recovering the runs of a stopped sidecar", zap.Error(err))
			}
		})
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
func (s *Service) recoverRuns(ctx context.Context, gone func(owner string) bool) (map[string]bool, error) {
	st := s.d.Store
	pending, err := st.PendingMessages(ctx)
	if err != nil {
		return nil, err
	}
	open, err := st.OpenConfirmations(ctx)
	if err != nil {
		return nil, err
	}
	live := map[string]bool{}
	claimed := map[string]string{} // session → the owner its run was taken from
	keep := map[string]bool{}
	for _, m := range pending {
		if m.Owner == st.Owner() {
			continue
		}
		if !gone(m.Owner) {
			if st.OwnerAlive(m.Owner) {
				live[m.Owner] = true
			}
			continue
		}
		if ok, err := st.ClaimRun(ctx, m.ID, m.Owner); err != nil || !ok {
			continue // finished meanwhile, or another process took it
		}
		claimed[m.SessionID] = m.Owner
		if p := s.findParked(ctx, m, open); p != nil {
			s.park(p)
			keep[p.Confirm.ID] = true
			continue
		}
		s.finishOrphan(ctx, m, s.d.Tr("This run was interrupted because GoVibe's server stopped. Send \"continue\" to resume."))
	}
	s.closeOrphanQuestions(ctx, open, claimed, keep, gone)
	return live, nil
}

// closeOrphanQuestions cancels the open questions whose asker is gone:
// those of the runs just claimed (now this process's, unless kept to be
// asked again) and those a gone owner left.
func (s *Service) closeOrphanQuestions(ctx context.Context, open []store.Confirmation, claimed map[string]string, keep map[string]bool, gone func(string) bool) {
	st := s.d.Store
	for _, c := range open {
		if keep[c.ID] || c.Owner == st.Owner() {
			continue
		}
		from := c.Owner
		if claimed[c.SessionID] == c.Owner {
			from = st.Owner()
		} else if !gone(c.Owner) {
			continue
		}
		if _, err := st.CancelConfirmation(ctx, c.ID, from); err != nil {
			s.d.Log.Warn("closing a question left open", zap.String("confirmation", c.ID), zap.Error(err))
		}
	}
}

// finishOrphan ends a claimed run: a notice saying why, status cancelled,
// and the session offers "Continue".
func (s *Service) finishOrphan(ctx context.Context, m store.PendingMessage, notice string) {
	w, err := s.d.Store.ResumeWriter(ctx, m.ID)
	if err != nil {
		return
	}
	_ = w.AddNotice(ctx, store.NoticeWarn, notice)
	_ = w.Finalize(ctx, store.StatusCancelled, nil)
	s.mu.Lock()
	s.interrupted[m.SessionID] = true
	s.mu.Unlock()
}

// Settle settles what a window that is gone left pending in the session,
// before the session is shown or gets a new turn: the run is cancelled
// with a notice in its transcript and its questions are closed, so no
// question waits for a window that will never answer it. A run of a
// window still open is left to that window.
func (s *Service) Settle(ctx context.Context, sid string) {
	st := s.d.Store
	pending, err := st.PendingMessagesOf(ctx, sid)
	if err != nil {
		return
	}
	open, err := st.PendingConfirmations(ctx, sid)
	if err != nil {
		return
	}
	mine := st.Owner()
	gone := func(owner string) bool {
		s.mu.Lock()
		watched := s.watching[owner]
		s.mu.Unlock()
		return owner != mine && !watched && !st.OwnerAlive(owner)
	}
	claimed := map[string]string{}
	for _, m := range pending {
		if !gone(m.Owner) {
			continue
		}
		if ok, err := st.ClaimRun(ctx, m.ID, m.Owner); err != nil || !ok {
			continue
		}
		claimed[sid] = m.Owner
		notice := s.d.Tr("The window that ran this turn was closed, so the turn stopped here. Send \"continue\" to resume.")
		for _, c := range open {
			if c.Owner == m.Owner {
				notice = s.d.Tr("The window that ran this turn was closed, so its question was cancelled and the turn stopped here. Send \"continue\" to resume.")
				break
			}
		}
		s.finishOrphan(ctx, m, notice)
	}
	if len(claimed) == 0 && !anyGone(open, gone) {
		return
	}
	s.closeOrphanQuestions(ctx, open, claimed, nil, gone)
}

func anyGone(open []store.Confirmation, gone func(string) bool) bool {
	for _, c := range open {
		if gone(c.Owner) {
			return true
		}
	}
	return false
}
