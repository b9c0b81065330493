// Package memory keeps project memory's L2 inventory true: a turn that
// changed files the inventory does not list (or removed files it still
// lists) leaves a reminder for the next message's context block, once.
//
// # The reminder
//
// After a turn that mutated, its before-turn snapshot is diffed with the tree
// (the engine passes each root's before-turn snapshot as a lazy diff,
// rollback.Manager.TurnChanges); files it created or changed that
// .govibe/memory/L2-inventory.md does not name, and removed files it still
// names, go to memory.reminder session state and into the next context block
// once ("Memory: … update it"); no inventory, no reminder. It is computed once
// per turn (a plan's executors included) and joins only the next user message,
// never a request inside the turn, so the track's prefix is untouched. The
// only other memory text the model gets is a one-line pointer
// (contextfiles.MemoryPointer: which levels exist), sent with the context
// files (first message, or a change notice when memory appears); its hash
// follows the levels present, not their contents. Nothing creates the memory
// unasked: it comes from /init or on first use once the user confirms (package
// approval).
package memory
