// Package eventdata declares the kind-specific data a chat/event carries,
// once: the engine publishes these types, protocol.ChatEvent carries them
// in one optional field each (generated from All), and the TypeScript
// types are generated from them too.
//
// It is a leaf, like protocol/kinds, so the engine can build a payload
// without importing the wire contract, and nothing converts a payload on
// its way out: a payload the engine publishes is the payload the client
// reads. A new event kind with data is therefore its name in
// protocol/kinds, its type here (with its Field method and its entry in
// All), and its case in the webview's reducer; `go generate ./protocol`
// derives the wire field and the TypeScript, and TestGeneratedFilesAreFresh
// fails until it has been run.
package eventdata

// Payload is a chat event's kind-specific data. The set is closed: only
// this package's types have the unexported method.
type Payload interface {
	// Field is the payload's JSON field on chat/event ("hook"). Each type
	// has its own, so a client finds a payload by its field.
	Field() string
	payload()
}

// Snapshots lists a turn's before-snapshots, one per root (kind
// "snapshots"); the event's messageId is the turn's user message.
type Snapshots []TurnSnapshot

// All lists one zero value of every payload type, in the order of the
// wire's fields. TestAllListsEveryPayload fails when a type is missing.
var All = []Payload{HookRun{}, ContextUse{}, TodoState{}, ReviewCard{}, ModeState{}, Snapshots{}, Notification{}}

func (HookRun) Field() string      { return "hook" }
func (ContextUse) Field() string   { return "context" }
func (TodoState) Field() string    { return "todo" }
func (ReviewCard) Field() string   { return "review" }
func (ModeState) Field() string    { return "mode" }
func (Snapshots) Field() string    { return "snapshots" }
func (Notification) Field() string { return "notification" }

func (HookRun) payload()      {}
func (ContextUse) payload()   {}
func (TodoState) payload()    {}
func (ReviewCard) payload()   {}
func (ModeState) payload()    {}
func (Snapshots) payload()    {}
func (Notification) payload() {}
