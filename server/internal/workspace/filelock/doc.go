// Package filelock takes advisory, exclusive, whole-file locks that other
// processes see: flock on Unix, LockFileEx on Windows. The kernel drops a
// lock when its holder exits, however it exits, which is what makes a held
// lock a proof of life (store's owner leases) and a released one safe to
// take over (snapshot's shadow repository).
//
// A lock belongs to the open file: two *os.File of one path in the same
// process exclude each other too, so tests can play two processes.
package filelock
