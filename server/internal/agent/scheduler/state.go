package scheduler

import "github.com/govibe/govibe/server/internal/storage/sessionstate"

// TodoPlanKey is the session's todo plan; absent when it has none.
var TodoPlanKey = sessionstate.NewKey[Plan]("todo_plan")
