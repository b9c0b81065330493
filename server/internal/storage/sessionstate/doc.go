// Package sessionstate is the typed view of the store's per-session state
// (the session_state table): every key is declared once, with NewKey and
// the Go type of its value. The keys shared by several capabilities are in
// keys.go; a capability's own state is declared in its package next to the
// value's type (scheduler.TodoPlanKey, modes.ModeKey, review.PlanReviewKey),
// so this package is a leaf that imports no other internal package. A name
// declared twice panics at start-up. Callers read and write through Get, Set and
// Delete, never with a bare string key (a test enforces it).
//
// # Renamed keys
//
// A test fails on any raw GetState/SetState/DeleteState call outside the
// store. A renamed key keeps its old name as a fallback read (the edit toggle
// was stored as editEnabled, now edit_enabled); the first write removes the
// old copy. A key declared relaxed commits without waiting for the disk (the
// usage accounting; package store, "Durability in a turn").
package sessionstate
