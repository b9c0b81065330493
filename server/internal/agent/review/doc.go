// Package review runs the independent reviewers that check a plan, an
// edit or a shell command before the user is asked: each is a separate
// model call with its own system prompt, whose answer must be a structured
// verdict. It also holds the checks that need no model: syntax (Go, JSON,
// YAML parsers), placeholder text, large deletions and callers of changed
// exported symbols.
//
// The package knows nothing of sessions, settings or the UI: the engine
// builds a Runner per review, stores its transcript and shows its verdict.
//
// Failure policy: a review that cannot be obtained (timeout, transport
// error, a verdict still malformed after one corrective retry) is reported
// as Outcome.Unavailable, never as an approval. Callers must then put the
// action in front of a human or refuse it.
package review
