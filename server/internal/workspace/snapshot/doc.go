// Package snapshot keeps whole-workspace snapshots in a private ("shadow")
// git repository so that an agent's changes can be rolled back without ever
// touching the user's own repository, index, branches or stash.
//
// Each workspace root gets a bare repository under
// <stateDir>/snapshots/<hash of root>/. A snapshot is a parentless commit
// referenced by refs/govibe/snapshots/<commit>; its metadata lives in the
// commit message trailers, so the shadow repository is self-describing and
// can be inspected with the git CLI.
//
// Snapshots are taken before the first mutation of a turn and after every turn
// that mutated (stopped and failed ones too); a restore takes a safety
// snapshot first, so it can itself be undone. Package rollback decides when;
// this package only stores and restores.
//
// # How they are stored
//
// go-git initialises the repository and writes refs; everything on the write
// path, and the hot reads, are by hand. Each scan streams its new blobs and
// trees, and the snapshot's commit, into one pack with its .idx (pack.go; the
// pack file is created by the first new object, so a scan that stores nothing
// creates no file), because creating files is what snapshots spend their time
// on: on ext4 under load a file create costs 0.3–3 ms, so the ~45 loose
// objects of a 10-file incremental snapshot took 25–170 ms; as one pack, two
// files. Objects are compressed with klauspost/compress's zlib at level 1
// (git's loose default level; 2.3× faster than the standard library for the
// same size) and named with crypto/sha1 (SHA-NI; go-git's collision-detecting
// hasher costs twice as much). A regular file is read in four system calls
// (open, read sized by the walk's lstat, fstat, close) when the fstat still
// equals that lstat; otherwise it is re-read until stable.
//
// Reads of trees and blobs (diffs, restore plans, restores) go through the
// object store, which keeps every pack's index in memory and adds a new pack's
// without re-reading the others, plus a cache of recent trees (objread.go);
// go-git, which would decode every index again after each new pack, is
// reopened only for what the store cannot read itself (deltas from a manual
// git gc). Past 16 packs the small ones are merged geometrically
// (packmerge.go: from the largest down, the first pack smaller than twice all
// those after it is merged with them, byte for byte), so the first snapshot's
// big pack is left alone; garbage collection (gc.go: mark from the refs,
// rewrite packs, sweep loose objects past a grace period) runs on Prune and
// session deletion, with a cross-process lock and a GC marker other processes
// notice. Loose objects are only read (stores from older versions) and packed
// in the background. make bench (snapbench) compares every snapshot figure
// with the git CLI doing the same work in the same run.
//
// # What keeps them correct
//
// A persisted stat cache (size, mtime, ctime, inode, mode) only reuses a hash
// for a file whose mtime is older than the racy window, and only for a blob
// already stored; files are re-read until their stat is stable. A snapshot's
// pack is installed before its ref is written, and the stat cache and tree
// memo only take in a scan once its pack is installed. The stat cache is saved
// in the background once the store has been idle for a second (at most 30 s
// later), so the save does not hold up the next operation; Close saves it.
// Writes go through package fsatomic (temp file and rename). Tests check the
// shadow repository with the real git: git fsck --strict after the round-trip
// and robustness tests, and git fsck --full after snapshots, restores,
// packing, pruning, session deletion (TestShadowRepositoryPassesGitFsckFull)
// and pack merges (TestSmallPacksAreMergedKeepingEverything).
//
// # Change tracking
//
// A full scan stats every file (openat/fstatat, in parallel), so its cost
// grows with the workspace. The sidecar therefore opens each store with an
// inotify watcher (watch_linux.go, fsnotify): every directory a scan may enter
// is watched (not .git, the skip list or the state directory), new directories
// get watches as they appear, and a moved directory's watches are dropped (a
// watch follows its inode, so it would keep reporting the old name). Events
// record changed directories and "deep" paths (created or moved-in
// directories, and the directory of a changed .gitignore, whose subtrees are
// re-read whole). Before each scan, a cookie file in a private watched
// directory is created and its event awaited: inotify queues one instance's
// events in order, so every change made before the snapshot (by a tool, or by
// a shell command that has exited) is in the set. The scan then lists only the
// directories on the way to a change and reuses the remembered trees of the
// others; the stat cache and the tree memo stay the source of truth.
//
// Whenever the watcher cannot vouch for having seen everything, the scan is a
// full one and the log says why: watcher starting or just started (so after
// every process restart), queue overflow, the inotify watch limit, a root on
// NFS/SMB/FUSE/9p, a barrier timeout, a failed scan, changed global or
// repository exclude files, or garbage collection. On other platforms there is
// no watcher (kqueue needs a descriptor per file) and every snapshot is a full
// scan. The extension does not forward VS Code's file events: they arrive over
// JSON-RPC with no ordering against the sidecar's own snapshot, miss govibe
// exec, and would be a second source to reconcile. A property test
// (watch_property_test.go) makes random creates, same-size same-mtime edits,
// deletes, renames, chmods, directory/file swaps, directory moves, .gitignore
// edits and restores, and checks each snapshot's tree against an independent
// full scan, with and without the watcher.
//
// # What a restore deletes
//
// Only what differs is written. A file absent from the target is removed when
// GoVibe saw it made: a snapshot taken after the target (restore safety
// snapshots excepted) holds it with its current content, or a restore after
// the target wrote it (restorelog.go, so undoing a restore removes what it
// brought back). A file no snapshot holds, or whose content changed since, is
// the user's work: kept and reported. Ignored and skipped files are never
// touched.
package snapshot
