// Package logging builds the sidecar's zap logger: stderr (the extension
// shows it in the "GoVibe" output channel) plus a size-rotated file in the
// storage directory. Secrets are scrubbed from every entry at every level.
//
// # Bounds
//
// Log messages and fields quote at most a few KB of input (the bounded core),
// so a huge request or tool output cannot flood the log. The API keys and MCP
// input values are registered as secrets and redacted wherever they appear.
package logging
