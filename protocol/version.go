package protocol

// Version is bumped on every incompatible change. The extension sends the
// version it was built against in initialize; a mismatch is refused with
// CodeVersionMismatch and a message naming both versions, so a stale
// extension and a new sidecar never talk past each other.
const Version = 1
