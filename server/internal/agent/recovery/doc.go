// Package recovery settles what a sidecar that is gone left pending in the
// shared session database: a run it was streaming (cancelled with a notice,
// the session offering "Continue"), the questions it asked (closed), and a
// run it left waiting on a question to the user (asked again; answering it
// resumes the run).
//
// # Why here, and why this name
//
// Run recovery was the engine's (issue 34 §2: the engine is a composition
// root and a turn runner). It is a sibling of the other capability
// packages, not under engine/, so server's
// TestCapabilityPackagesNeverImportEngine walks it: it sees the engine
// only through the narrow interfaces of Deps. It is named for what it
// does at start-up and when a session is opened — recovering the runs of
// a process that stopped — and is distinct from store (the rows a run
// leaves: pending messages, open confirmations, the owner lease),
// dialogs (the questions themselves) and sessions (the catalogue that
// shows the "interrupted" flag this package keeps).
//
// # What stays in the engine
//
// Deciding what to resume and rebuilding it (Parked: the question, the
// calls of the round still without a result, the user message the run
// answers) is here. Driving the resumed turn — a run with the recorded
// answer, the agent loop, finishing the turn — is the turn runner's: the
// answer reaches it through Deps.Resume, and it claims the parked run with
// Take under its own lock, so a new message and the answer never both
// win.
//
// # Behaviour
//
// Two editor windows on one workspace share the session database, each
// through its own sidecar (store/owner.go). What a window's process left
// pending is its own while it runs: another process never finalises or
// resumes it. What a process that is gone left pending is settled by the
// first process that looks:
//   - at start-up (Recover), as after a crash: a run parked on a question
//     is asked again (answering resumes it), any other run is cancelled
//     and the session offers "Continue";
//   - a process still alive at start-up that exits within ReloadGrace is
//     taken to be this window's previous sidecar (a reload stops it while
//     this one starts): its runs are recovered as at start-up;
//   - when a session is opened or written to (Settle): its run is
//     cancelled with a notice in the transcript and its questions closed.
//     That window is closed; nobody can answer what it asked.
//
// DropUnansweredPrompt is the same settling at a turn's end within one
// process: the prompt of a turn the model never answered leaves the model
// track.
package recovery
