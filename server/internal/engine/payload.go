package engine

import "github.com/govibe/govibe/protocol/eventdata"

// Payload is an event's kind-specific data: one of package eventdata's
// types, built by package eventview from the domain's records. The set is
// closed there, and the edge files a payload under its own wire field
// (protocol.Payloads.Put, generated from eventdata.All) without
// converting it, so no payload can be dropped by a converter that missed
// a case.
//
// A new kind with data is its name in protocol/kinds, its type in
// eventdata, and its case in the webview's reducer: `go generate
// ./protocol` derives the wire field and the TypeScript.
type Payload = eventdata.Payload
