// Package sandbox confines model-supplied paths to the workspace roots.
//
// Every path a tool touches goes through Resolve (reads) or ResolveForWrite
// (writes). The checks are lexical first (.., absolute paths, Windows drive
// and UNC forms) and then physical: the longest existing ancestor of the
// path is resolved through symlinks, so a link inside the workspace that
// points outside it is refused even when the final file does not exist yet.
//
// # Bounds
//
// A path is refused past 4,096 bytes or 512 components, before any work that
// grows with it; the real path is found walking forward, in linear time (make
// bench's pathbench compares the longest accepted path with a short one and
// with the former quadratic walk-back).
package sandbox
