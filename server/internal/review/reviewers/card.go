package reviewers

import "github.com/govibe/govibe/server/internal/review"

// Card is a reviewer's verdict as shown to the user.
type Card struct {
	Kind        string    `json:"kind"`
	Approved    bool      `json:"approved"`
	Problems    []Problem `json:"problems,omitempty"`
	Suggestion  string    `json:"suggestion,omitempty"`
	DurationMs  int64     `json:"durationMs"`
	Unavailable string    `json:"unavailable,omitempty"`
}

// Problem is one finding on a card.
type Problem struct {
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Location string `json:"location,omitempty"`
}

func cardOf(kind review.Kind, out review.Outcome) *Card {
	c := &Card{Kind: string(kind), DurationMs: out.Duration.Milliseconds()}
	if out.Unavailable != "" {
		c.Unavailable = out.Unavailable
		return c
	}
	c.Approved, c.Suggestion = out.Verdict.Approved, out.Verdict.Suggestion
	c.Problems = toProblems(out.Verdict.Problems)
	return c
}

func toProblems(ps []review.Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		out = append(out, Problem{Severity: p.Severity, Message: p.Message, Location: p.Location})
	}
	return out
}

// FromProblems converts a card's problems back for the next prompt.
func FromProblems(ps []Problem) []review.Problem {
	var out []review.Problem
	for _, p := range ps {
		out = append(out, review.Problem{Severity: p.Severity, Message: p.Message, Location: p.Location})
	}
	return out
}

// Feedback renders a rejected card for the model.
func (c *Card) Feedback() string {
	if c == nil {
		return ""
	}
	if c.Unavailable != "" {
		return "review unavailable: " + c.Unavailable
	}
	s := review.Format(FromProblems(c.Problems))
	if c.Suggestion != "" {
		s += "\nSuggestion: " + c.Suggestion
	}
	return s
}
