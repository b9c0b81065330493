package sessioncompact

import (
	"context"
	"encoding/json"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/agent/compact/compaction"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// What compaction keeps outside its summary (the user's decisions) and the
// pause after an automatic compaction.

// Decisions are the user's answers to the session's confirmations of tool
// calls, read from the store (the Broker persists each), so they survive
// restarts and every compaction.
func (h host) Decisions(ctx context.Context, sid string, limit int) ([]compact.Decision, int) {
	recs, omitted, err := h.d.Store.CallDecisions(ctx, sid, limit)
	if err != nil {
		h.d.Log.Warn("reading the user's decisions for compaction", zap.String("session", sid), zap.Error(err))
		return nil, 0
	}
	var out []compact.Decision
	for _, r := range recs {
		if d, ok := decisionOf(r); ok {
			out = append(out, d)
		} else {
			omitted++
		}
	}
	return out, omitted
}

// decisionOf reads one answered confirmation as a decision; answers nobody
// gave (a timeout, a dialog closed) are not decisions.
func decisionOf(r store.Confirmation) (compact.Decision, bool) {
	var c approval.Confirm
	var a approval.Answer
	if json.Unmarshal(r.Payload, &c) != nil || json.Unmarshal(r.Response, &a) != nil {
		return compact.Decision{}, false
	}
	if a.Reason == approval.ReasonTimedOut || a.Reason == approval.ReasonClosed {
		return compact.Decision{}, false
	}
	reason := strings.TrimSpace(a.Reason)
	if reason == approval.ReasonDone {
		reason = ""
	}
	d := compact.Decision{Kind: c.Kind, Accepted: a.Accept, Reason: reason}
	switch c.Kind {
	case "edit":
		d.Subject = firstNonEmpty(c.RelPath, c.Path)
		d.Changed = a.Content != nil || len(a.RejectedHunks) > 0
	case "shell":
		d.Subject = c.Command
		d.Changed = a.Command != "" && a.Command != c.Command
		if d.Changed {
			d.Subject = a.Command
		}
	case "tool":
		d.Subject = firstNonEmpty(c.Command, c.Tool)
	case "fetch":
		d.Subject = c.URL
	case "question":
		answer := strings.TrimSpace(a.Answer)
		if c.Review != nil {
			// The plan question: only its accepting choice approves; a typed
			// reply is feedback, and the reject choice is no reason.
			d.Kind, d.Accepted, d.Reason = "plan", a.Accept && answer == approval.PlanUse, ""
			if a.Accept && answer != approval.PlanUse && answer != approval.PlanReject {
				d.Answer = answer
			} else if !a.Accept {
				d.Reason = reason
			}
			return d, true
		}
		d.Subject, d.Answer, d.Reason = firstLineOf(c.Question), answer, ""
		d.Accepted = a.Accept && answer != ""
	default:
		d.Subject = firstNonEmpty(c.Command, c.Tool, c.URL, c.Path)
	}
	return d, true
}

func firstLineOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// ContinueAfter asks, when compact.askToContinue is on, whether the run
// goes on after an automatic compaction, on a card naming what was
// summarised and kept. Headless never pauses: nobody could answer, and
// --max-turns, --max-cost and --max-tokens bound an unattended run.
func (h host) ContinueAfter(ctx context.Context, sid, turnID string, info compaction.Info) error {
	if h.d.Headless || !h.d.Settings().Compact.AskToContinue {
		return nil
	}
	tr := h.d.Tr
	q := tr("Context was compacted — continue?") + "\n\n" + info.Notice
	cont := tr("Continue")
	ans, err := h.d.Asker.Ask(ctx, approval.Confirm{SessionID: sid, TurnID: turnID, Kind: "question", Question: q,
		Options: []string{cont, tr("Stop")}})
	if err != nil {
		return err
	}
	if ans.Accept && (ans.Answer == cont || ans.Answer == "Continue") {
		return nil
	}
	h.d.Events.Notice(sid, turnID, "info", tr("Stopped after the conversation was compacted. Send a message to continue."))
	return compaction.ErrStopped
}
