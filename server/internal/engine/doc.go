// Package engine is the sidecar's state layer: turns, the event bus,
// confirmations and snapshots. The JSON-RPC server and the headless
// CLI both drive it; neither owns any logic of its own.
//
// # What it holds
//
// The engine sequences a run (the turn) and owns the event Bus (the
// confirmation Broker is package dialogs'; the session catalogue — create,
// list, load, rename, delete, a session's model and prompt facts — is
// package sessions' Catalog, held in Engine.Sessions and told of the turns
// through sessionsTurns, sessions_host.go); each capability lives in its
// own package and sees the engine only through an interface of what it
// needs, never *Engine
// (server's TestCapabilityPackagesNeverImportEngine). New, the composition
// root (wiring.go), builds every capability and wires it in behind a small
// host adapter holding only the collaborators it uses (planHost,
// reviewHost, approvalHost, modesHost, slashHost, rollbackHost in wiring.go
// and wiring_hosts.go) or options of narrow interfaces and plain functions
// (session compaction, the budget gate, skills, hooks, MCP, trust). The turn's own adapters (planTurn,
// reconcileAgents and phasesTurn in wiring_modes.go) drive a running turn; sub-agents run in subagent.Runs. Send loads the
// turn's view of the session (view: mode, BTW, limits, plan tag, hook
// context) once and passes it on. Event kinds are protocol/kinds' constants
// (Event.Kind is a kinds.Kind). Tests that need a whole engine run on
// enginetest (an engine on the scripted model, a Script that answers the main
// agent and sub-agents separately, reply helpers); the scenario tests are
// package engine_test, and export_test.go opens the few internals they check.
//
// # A turn
//
// Send (turn.go) closes a question a restored run still waits for, lets
// slashcmd.Commands.Run match a command (a command may answer itself or turn
// the message into a turn's text, with the limits a custom command puts on
// it), fires UserPromptSubmit, refuses a second turn in a busy session
// (ErrBusy) and commits the user message and a pending assistant record
// (beginTurn) before anything is sent to the model; the turn then runs on its
// own goroutine (runTurn): the free phase's agent run, a plan's items
// (planrun), Phases' runs or the reconcile loop (moderun). A turn starts in
// the free phase. When the model calls create_todo_list (checked first by the
// plan reviewer when todolistReview.enabled), the round finishes and the
// scheduler runs each item as executor:N then evaluator:N. A restart re-offers
// a run that was parked on a confirmation, an ask_human question or the plan
// question; any other pending run is finalised as cancelled and the session
// flagged so the UI offers "Continue" (package recovery; resume.go drives
// the resumed turn).
//
// Before every model call the sanitizer (compact.Sanitize) repairs unanswered
// tool calls and the request is validated against the one-result-per-call
// rule. A turn that ends with nothing after its user message in the model
// track (the model failed or was stopped before replying) takes that message
// back out (recovery.DropUnansweredPrompt): the transcript keeps it, and the next request
// never carries an unanswered prompt or two user messages in a row. Side
// conversations (/btw) keep the same tool list (plan tools are refused on
// call, not removed) and are dropped from the model track when they end
// (btw.go).
//
// # Ordering and per-engine state
//
// Server→client editor requests are only issued from turn goroutines.
// Confirmations are a notification (confirm/requested) plus a request
// (confirm/resolve): the tool parks on the Broker (dialogs), the ordered
// handler resolves it, and nothing blocks the connection. Per-engine state belongs to
// the type that owns it, never to package-level maps: compaction.Compactor
// holds each session's compaction slot and block (a compaction started while
// another runs is compaction.ErrCompacting; automatic compaction waits for it);
// planrun.Runner holds one mutex per session under which every
// read-change-persist of the plan happens; usage.Meter serialises each
// session's usage read-modify-write (both through sessionstate.Locks);
// commands.Registry is guarded by a RWMutex. planrun.Turn is called from its
// turn's goroutine only.
//
// The Bus (package eventbus, instantiated with Event) stamps each session's
// events with a monotonically increasing seq and delivers them to each
// subscriber on one goroutine in order. A subscriber that falls behind has
// consecutive deltas merged (Event.Continues says which); terminal events are
// never merged or dropped. A replay ring lets clients resume from a seq.
//
// # Questions (ask_human)
//
// The confirmations and ask_human's question dialogs are package dialogs'
// (dialogs.Broker, dialogs.Questions; the engine wires them and the turn's
// approver hands ask_human to Questions). What stays here: a resumed run
// answers its restored question with the user's reply (turnApprover), a
// restored question's timeout starts when the run is parked (recovery), and a
// turn's end closes its open dialogs (Broker.EndDialogs). Headless (govibe
// exec) asks on stderr and reads a line from stdin when stdin is a TTY,
// under the same timeout (TestHeadlessAskHumanTimesOut; one reader goroutine
// for the process; a line typed while no question is shown answers nothing;
// TestExecAskHumanWithTTY under a real pty); otherwise the call fails with
// "No human is available in this run".
//
// # Notifications
//
// show_notification(message, severity) (info, warning, error; at most 500
// characters, 5 per turn, so a prompt-injected page cannot flood the screen)
// goes through the turn's approver (tools.Notifier) onto the bus as a
// live-only notification chat event and to Notification hooks. The extension
// host shows it as a VS Code notification of that severity; the webview
// ignores the event, the tool's card being the transcript's record. Headless,
// exec prints it on stderr in text mode, as a notification line in stream-json
// and in the json result's notifications.
//
// # Roles and models
//
// Reviews, compaction, sub-agents, plan executors and evaluators and session
// titles resolve their profile through govibe.roles.<role> (package profiles,
// e.Profiles), falling back to main: the session's profile
// (profiles.Resolver.ForRole; its /model or picker choice, else govibe.model). A per-review *.model setting still wins over the
// reviewer role. session/setModel (the header's model button,
// sessions.Catalog.SetModel) sets the session's choice as /model NAME does, so
// an earlier /model does not outlive the newer pick. A session records the
// model its turns use (sessions.model, updated at the start of a turn that
// uses another: Catalog.RecordModel). The context meter's
// window is the session model's, or a running custom command's (usage.Context),
// and session/setModel publishes it at once (a usage chat event carrying only
// context); usage.Context.profile names the session's own choice. Titles: the
// first message names a session at once; with titles.model on or a roles.title
// profile, that model is asked for a better title in the background (title.go,
// cleaned by titles.FromModel); a failure keeps the first-message title.
//
// A context-length error from the provider makes the run compact once and
// retry once (agent.Run.OverflowCompact, overflow.go). A second one ends the
// turn with "This model's window is 64k; the request was 71k: compact the
// conversation (/compact) or pick a model with a larger window" (counts from
// the provider's words, llama.cpp's n_ctx fields, else the profile's window)
// and a Choose model button
// (TestProviderContextLengthErrorCompactsOnceAndRetriesOnce). With nothing to
// compact yet, the first one ends the turn the same way.
package engine
