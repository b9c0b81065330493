// Package rollback is the snapshot and rollback capability: one shadow
// snapshot store per workspace root (opened lazily, pruned in the
// background), the snapshots taken before, during and after a turn, the
// record of which snapshot holds each root as it was before a turn, and
// the restores (a snapshot, one file of it, or every root back to before
// a turn) with what they tell the user and the model.
//
// It sees the engine only through Host: stopping the running turns,
// publishing the events a client shows, forgetting what the model read,
// the settings and the user's language. It is the product's rollback path,
// so it must always do exactly what it says: a turn is rolled back in
// every root or not offered at all, and a safety snapshot of every root is
// taken before any is touched.
//
// # Turns and rollback
//
// Each snapshot's message trailers carry its session, turn (number and id),
// reason (before turn, after turn, manual, reconcile loop, or before restore
// for the safety snapshot) and root. A turn is known by its user message's id,
// so the id stays valid in the stored transcript and across restarts. Before a
// turn's first mutation (a write, an accepted edit, a shell command) every
// root is snapshotted (RecordBeforeTurn); the snapshot holding each root's
// state, new or an older one when nothing changed, is recorded in session
// state (sessionstate.TurnSnapshots: turn id → one id per root) and announced
// with a snapshots chat event; session/load puts the same ids on the user
// message (Message.snapshots). Only a turn that mutated gets an "after turn"
// snapshot (Take, then MaybePrune: by age and count at most once an hour, in
// the background), so a chat-only turn leaves none and offers no rollback.
// TurnChanges feeds the memory reminder.
//
// snapshot/restoreTurn (with dryRun to say what would change) stops running
// turns, takes a safety snapshot of every root before touching any (a root
// unchanged since its latest snapshot is not snapshotted twice: that one is
// its undo), restores each root and returns per-root changes; the client never
// works out which snapshot belongs to a turn. A restore writes two records: a
// sentence for the user in the chat ("Restored 3 files to before “Fix the
// bug”; 1 file of yours kept", localised) and, in the model's track only, a
// note listing what changed. The server and `govibe snapshot` reach the
// Manager through Engine.Rollback.
package rollback
