package reviewers

import "github.com/govibe/govibe/server/internal/agent/review"

// Card is a reviewer's verdict as shown to the user.
type Card struct {
	Kind        string    `json:"kind"`
	Approved    bool      `json:"approved"`
	Problems    []Problem `json:"problems,omitempty"`
	Suggestion  string    `json:"suggestion,omitempty"`
	DurationMs  int64     `json:"durationMs"`
	Unavailable string    `json:"unavailable,omitempty"`
}

// Problem is one finding on a card: the verdict's own type, so a card's
// problems go back into the next prompt unchanged.
type Problem = review.Problem

func cardOf(kind review.Kind, out review.Outcome) *Card {
	c := &Card{Kind: string(kind), DurationMs: out.Duration.Milliseconds()}
	if out.Unavailable != "" {
		c.Unavailable = out.Unavailable
		return c
	}
	c.Approved, c.Suggestion = out.Verdict.Approved, out.Verdict.Suggestion
	c.Problems = out.Verdict.Problems
	return c
}

// Feedback renders a rejected card for the model.
func (c *Card) Feedback() string {
	if c == nil {
		return ""
	}
	if c.Unavailable != "" {
		return "review unavailable: " + c.Unavailable
	}
	s := review.Format(c.Problems)
	if c.Suggestion != "" {
		s += "\nSuggestion: " + c.Suggestion
	}
	return s
}
