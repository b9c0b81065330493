package review

import "github.com/govibe/govibe/server/internal/storage/sessionstate"

// PlanReviewState is the plan reviewer's rejection count and its last
// problems, carried between create_todo_list calls.
type PlanReviewState struct {
	Attempts int       `json:"attempts"`
	Previous []Problem `json:"previous,omitempty"`
}

// PlanReviewKey holds the session's PlanReviewState.
var PlanReviewKey = sessionstate.NewKey[PlanReviewState]("review.plan")
