// Package sessions is the session catalogue: creating, listing, opening
// (a page of the UI track with the session's live state), renaming and
// deleting chat sessions, the model a session uses and records, and the
// facts (date, git state) its system prompt carries.
//
// # Why here, and why this name
//
// The catalogue was the engine's (issue 34 §2: the engine is a composition
// root and a turn runner). It is a sibling of the other capability
// packages, not under engine/, so server's
// TestCapabilityPackagesNeverImportEngine walks it: it sees the engine only
// through the small interfaces of Deps (Turns for what the turn runner
// knows: which turn runs or is shown, a run a previous process cut off, the
// buffered deltas, Stop). It is named for what callers ask of it —
// eng.Sessions.List, eng.Sessions.Load — and is distinct from store (the
// SQL rows), sessionstate (typed per-session key/value state) and usage
// (what a session cost).
//
// # Behaviour
//
// A change callers should show (a new session, a rename, a recorded model,
// a title, a finished turn) reaches Options.OnSession as a Summary with the
// session's running state and cost (Changed). Load reads the bus's last
// seq before the page, so no live event falls between the page and the
// events a client applies after it; opening a session (beforeSeq 0) first
// settles what a closed window left pending in it. Facts are read once per
// session, when its first prompt is built, and kept for the process's life
// so the request prefix stays byte-identical (facts.go).
package sessions
