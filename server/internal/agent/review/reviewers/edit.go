package reviewers

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/agent/review"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// maxReviewContext is the largest original file the edit reviewer is
// shown whole; bigger files are represented by the diff's context alone.
const maxReviewContext = 24 << 10

// Edit runs the static checks and, when they pass, the edit reviewer on
// a proposal of the turn answering request. It returns the card (nil
// when the review is off) and, for a rejection, the note that sends the
// problems back to the model.
func (r *Reviewers) Edit(ctx context.Context, t Target, request string, p tools.EditProposal) (*Card, string, error) {
	if !r.Enabled(review.KindEdit) {
		return nil, "", nil
	}
	start := time.Now()
	st := review.CheckEdit(review.EditCheck{Path: p.Path, RelPath: p.RelPath, Original: p.Original, Proposed: p.Proposed,
		IsNew: p.IsNew, Delete: p.Delete, Roots: r.opts.Roots})
	if review.Blocking(st.Problems) {
		card := &Card{Kind: string(review.KindEdit), Problems: st.Problems, DurationMs: time.Since(start).Milliseconds()}
		r.host.PublishReview(t, card)
		return card, rejectionNote(card), nil
	}
	in := review.EditInput{Request: request, Intent: r.intent(ctx, t.SessionID, p.ToolCallID), Path: p.RelPath, IsNew: p.IsNew, Delete: p.Delete,
		Diff: st.Diff, Findings: st.Problems}
	if !p.IsNew && len(p.Original) <= maxReviewContext {
		in.Context = p.Original
	}
	card := r.Run(ctx, t, review.KindEdit, in.Prompt())
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	if card.Unavailable == "" && !card.Approved {
		return card, rejectionNote(card), nil
	}
	// Static warnings travel with the verdict so the user sees them too.
	for _, w := range st.Problems {
		if !hasProblem(card.Problems, w) {
			card.Problems = append(card.Problems, w)
		}
	}
	return card, "", nil
}

func hasProblem(ps []Problem, p Problem) bool {
	for _, x := range ps {
		if x.Message == p.Message {
			return true
		}
	}
	return false
}

func rejectionNote(card *Card) string {
	return "The automatic edit review rejected this change, so it was not shown to the user and nothing was written. " +
		"Fix these problems and propose the edit again:\n" + card.Feedback()
}

// intent is what the model said about the tool call under review: its
// message text and the call's arguments, from the committed track.
func (r *Reviewers) intent(ctx context.Context, sid, callID string) string {
	track, err := r.store.LLMMessages(ctx, sid)
	if err != nil {
		return ""
	}
	for i := len(track) - 1; i >= 0; i-- {
		m := track[i]
		if m.Role != llm.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls {
			if c.ID == callID {
				args := c.Arguments
				var pretty map[string]any
				if json.Unmarshal([]byte(args), &pretty) == nil {
					// The content is in the diff; keep the rest short.
					for _, k := range []string{"content", "newContent", "newText", "oldText"} {
						delete(pretty, k)
					}
					b, _ := json.Marshal(pretty)
					args = string(b)
				}
				return strings.TrimSpace(m.Content + "\n\nTool call: " + c.Name + " " + args)
			}
		}
	}
	return ""
}
