// Package store persists GoVibe conversations in one embedded SQLite file per
// workspace, so that they survive a crashed sidecar and power loss.
//
// Durability contract: every exported call that returns a nil error has
// committed its writes, with one documented exception: the text and
// reasoning deltas buffered by a StreamWriter, which reach the disk at most
// FlushInterval later (or sooner, at the next tool call, tool result, notice
// or Finalize). A crash therefore loses at most the last FlushInterval of
// streamed text and never a tool call, a tool result or a status change.
//
// Concurrency: a Store is safe for concurrent use by any number of
// goroutines. Writes are serialised through a single connection (SQLite has
// one writer anyway, and queueing in-process avoids SQLITE_BUSY between our
// own goroutines); reads use a separate pool and, thanks to WAL, never wait
// for writers. Other processes opening the same file are tolerated through
// the busy timeout.
package store
