// Package sessioncompact is compaction as a session uses it: the service
// the engine holds (Engine.SessionCompaction) and the host the compaction
// runner (package compaction) asks. It owns the explicit entry points —
// Compact (the compact tool, a context-length error) and Start (the
// button and /compact, in the background, reporting a failure as a notice
// and /compact's usage as a turn's) — the policy that settings and the
// model's window give, the request prefix the summary shares with the free
// phase, and what the summary keeps outside it: the user's decisions, read
// from the store's answered confirmations (package dialogs records a
// terminal reply as one), and the question after an automatic compaction
// (compact.askToContinue; never headless).
//
// It sees the engine only through Deps: the store, the meter, the
// confirmation asker and the compaction events as narrow interfaces, and
// plain functions for what the turn runner answers (the model the next
// request goes to, the free phase's prompt and tools, the context in use).
// Tests: TestTwoCompactionsKeepTheTask, TestStopAfterCompactionEndsTheTurn,
// TestHeadlessAnswersAreKeptAndNothingPauses, TestDecisionOfEachConfirmation.
package sessioncompact
