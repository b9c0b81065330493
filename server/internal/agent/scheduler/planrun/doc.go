// Package planrun runs a session's todo plan: it keeps the plan (session
// state, one writer at a time per session), offers the plan tools, and
// drives a plan's items, each an executor then an evaluator agent, then
// the closing free phase. It reaches the engine only through Host (per
// engine) and Turn (the running turn it was handed); the turn stays the
// one place that sequences a run and hands over to Run.
//
// # A plan in a turn
//
// A turn starts in the free phase. When the model calls create_todo_list
// (checked first by the plan reviewer when todolistReview.enabled), the round
// finishes and the runner runs each item as executor:N then evaluator:N, each
// an agent run whose role decides which tools are offered (and refused if
// called anyway; package scheduler). When an agent finishes, its part of the
// model track is replaced by a summary built from its tool calls (scoped
// compaction); the UI track keeps everything. The plan is session state, so
// Stop, a reload or a sidecar restart resumes at the right item. Host gives
// todo events, "is the session running", the plan reviewer, limits and the
// compaction block; Turn gives the running turn's open message and one agent
// run per step. A plan created under a custom command carries its model and
// allowed tools (scheduler.Plan.Model, AllowedTools), so every resume runs
// under them. Evaluators' shell is EvaluatorShell (scheduler.EvaluatorMayRun).
package planrun
