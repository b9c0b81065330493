// Package server implements protocol.Server on top of the engine: one file
// per method, converting between wire and domain types at this edge.
//
// # Start-up
//
// initialize answers at once; the store opens in the background and every
// later request waits for it, so the editor never waits on disk. Problems
// found while opening (a corrupt database moved aside) arrive as
// server/notice. The bus subscriber (initialize.go) converts each engine event
// (convert.go) and sends each run of queued events in one write (wire.Batch).
// Only this package (with wire and the test and benchmark clients) imports
// protocol: TestDomainPackagesNeverImportProtocol in layering_test.go;
// TestCapabilityPackagesNeverImportEngine keeps every other package off
// *engine.Engine.
//
// # Loading a session
//
// session/load returns a page of the UI track with each user message's extras
// and snapshots, the open ask_human dialogs, and the sub-agents of the page's
// messages (SessionLoadResult.subAgents, each with at most its newest 200
// messages; session/load on a child's id pages older ones). Engine-written
// user messages carry their origin, and a scheduler prompt is never taken for
// a turn's start.
package server
