// Package protocol is the single source of truth for the JSON-RPC 2.0
// contract between the GoVibe extension and the sidecar: method names,
// params and results, notifications and error codes.
//
// The Methods table in spec.go drives code generation: `go generate
// ./protocol` writes dispatch_gen.go (Go server dispatch and typed client),
// payloads_gen.go (chat/event's payload fields, from eventdata.All) and
// extension/src/protocol.gen.ts. TestGeneratedFilesAreFresh fails when any
// is stale.
package protocol

//go:generate go run ./generate
