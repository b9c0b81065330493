package tools

import (
	"encoding/json"
	"strings"
	"sync"
)

// Traits say what a tool does. Each tool declares them next to its
// definition (Tool.Traits); which tools a role, mode, phase, profile or
// command offers is derived from them in one place (package toolpolicy),
// never from lists of tool names. A new tool is placed by its traits: a
// tool with only Reads is offered wherever reading is.
type Traits uint32

const (
	// Reads reads a named file's text, or facts about it (size, lines,
	// the editor's problems).
	Reads Traits = 1 << iota
	// Searches lists or searches the workspace.
	Searches
	// Computes works on its arguments alone: nothing is read or written.
	Computes
	// WritesWorkspace creates, changes or deletes files or folders.
	WritesWorkspace
	// RunsCommands runs programs.
	RunsCommands
	// ReachesNetwork fetches from, or calls, something outside this
	// machine's workspace (the web, an MCP server).
	ReachesNetwork
	// DrivesBrowser clicks, types and submits in a browser: what it
	// does to a site may not be undone.
	DrivesBrowser
	// AsksHuman asks the person and waits for the answer.
	AsksHuman
	// Notifies shows the person something outside the chat.
	Notifies
	// StartsSubAgent runs another agent with its own tools; a sub-agent
	// tool also carries the traits of the tools it gives that agent.
	StartsSubAgent
	// Catalog reads or activates the agent's own catalogues: skills,
	// the MCP tool index. Not the workspace.
	Catalog
	// Plans creates or replaces the todo plan.
	Plans
	// JudgesItems marks a plan item done (the evaluator's verdict).
	JudgesItems
	// Reports ends a mode's phase or a sub-agent with its report.
	Reports
	// Meta changes the conversation itself (compaction).
	Meta
	// FromEditor: the tool's answer comes from the attached editor (its
	// problems); a headless run has none, so it is not offered there.
	FromEditor
	// Deferred is not what a tool does but how it is offered: the model
	// rarely needs it in a turn, so its schema stays out of the request
	// and one entry (DeferredEntryName) lists it by name and a line, shows
	// its schema on demand and runs it. toolpolicy decides when a deferred
	// tool is offered that way; every other rule, and Within and
	// ChangesNothing, ignore this trait.
	Deferred
)

// Looks are the traits of a tool that only looks at the workspace (or at
// the editor's view of it).
const Looks = Reads | Searches | Computes | FromEditor

// changes are the traits of a tool whose call changes something: the
// workspace, a site, the plan, a mode's machine, the conversation.
const changes = WritesWorkspace | RunsCommands | DrivesBrowser | Plans | JudgesItems | Reports | Meta

var traitNames = []struct {
	t    Traits
	name string
}{
	{Reads, "reads"}, {Searches, "searches"}, {Computes, "computes"}, {WritesWorkspace, "writes"},
	{RunsCommands, "runs commands"}, {ReachesNetwork, "network"}, {DrivesBrowser, "drives a browser"},
	{AsksHuman, "asks"}, {Notifies, "notifies"}, {StartsSubAgent, "sub-agent"}, {Catalog, "catalog"},
	{Plans, "plans"}, {JudgesItems, "judges items"}, {Reports, "reports"}, {Meta, "meta"}, {FromEditor, "from the editor"},
	{Deferred, "deferred"},
}

// Has says whether t has any of x.
func (t Traits) Has(x Traits) bool { return t&x != 0 }

// Within says whether t has traits and all of them are among x (Deferred
// aside: it says how a tool is offered, not what it does).
func (t Traits) Within(x Traits) bool { t = t.does(); return t != 0 && t&^x == 0 }

// ChangesNothing: a call of the tool changes nothing (it may read, search,
// fetch, ask or notify). Such tools may run in parallel.
func (t Traits) ChangesNothing() bool { t = t.does(); return t != 0 && !t.Has(changes) }

// does is t without the traits that say how a tool is offered.
func (t Traits) does() Traits { return t &^ Deferred }

func (t Traits) String() string {
	var out []string
	for _, n := range traitNames {
		if t.Has(n.t) {
			out = append(out, n.name)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "|")
}

// WritesOneFile says whether t writes one file named by its filePath
// argument (edit, write_file, delete_file): calls of it are ordered per
// file, and a path rule judges that argument.
func WritesOneFile(t Tool) bool {
	return t.Traits().Has(WritesWorkspace) && hasProperty(t, "filePath")
}

func hasProperty(t Tool, prop string) bool {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(t.Schema(), &s) != nil {
		return false
	}
	_, ok := s.Properties[prop]
	return ok
}

var builtinTraits = sync.OnceValue(func() map[string]Traits {
	m := map[string]Traits{}
	for _, t := range Builtin() {
		m[t.Name()] = t.Traits()
	}
	return m
})

// BuiltinTraits are the traits of the built-in tool called name (0 for
// any other name), for code that has only a call's name: a stored call,
// an activity summary.
func BuiltinTraits(name string) Traits { return builtinTraits()[name] }
