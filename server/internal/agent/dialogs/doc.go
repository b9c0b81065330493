// Package dialogs holds what waits on the user: the confirmation Broker
// (edits, commands, MCP calls, fetches, browser runs, the plan question,
// compaction's "continue?") and ask_human's question dialogs (Questions).
//
// It is named after what it holds, as approval, usage and titles are: every
// confirmation and question is a dialog with the user, recorded, shown,
// answered or withdrawn; "broker" would name the mechanism, and "confirm"
// would leave out the questions and their threads. It is a capability: it
// sees neither the engine nor the wire. The Broker is given a Store (the
// two confirmation writes of *store.Store), the client's callbacks and the
// cancellation cause of a stopping process; Questions the Broker, the same
// Store, the headless terminal, askHuman.timeoutMs and the process's
// context. The engine wires both (engine/wiring.go); the server resolves
// through Broker.Resolve and lists Broker.Dialogs on session/load.
//
// # Confirmations (Broker)
//
// Ask persists a Confirm (so it survives a window reload), shows it
// (confirm/requested) and blocks only the asking tool's goroutine until
// Resolve, from the ordered handler, delivers the answer, or the call's
// context ends: the question is then withdrawn (cancelled, confirm/closed
// "cancelled"), except when the process is stopping (Options.Stopping),
// where it stays pending on disk and Ask returns agent.ErrSuspended so the
// next process asks it again and resumes the run. Restore re-registers a
// question a previous process left pending, with a callback in place of a
// waiting goroutine; Expire and Withdraw close one unanswered. Resolve of an
// id no longer pending is ErrNoSuchConfirm. Pending lists a session's open
// confirmations in the order asked.
//
// # Questions (ask_human)
//
// ask_human(question, options) parks a question Confirm on the Broker for
// askHuman.timeoutMs (default approval.DefaultQuestionTimeout, 30 min; a
// question restored after a restart keeps its deadline, counted from when it
// was first asked, and its expiry resumes the run with "No answer within …":
// ExpireRestored; TestAskHumanTimeoutSurvivesRestart). Options are trimmed
// and deduplicated by the tool, at most 10 of at most 200 characters.
// confirm/resolve maps to the result: accept + answer = Send
// ("The user replied: …"), accept + reason "done" = Done ("… and is done
// with this topic: …"), reject = Cancel; a timeout tells the model nobody
// answered. Each answer ends the call, but Send (or a choice) does not end
// the dialog: the question is asked in a dialog (dialogId on the request),
// the Broker keeps it open after a reply (confirm/closed reason replied,
// dialog.go) and the agent's next ask_human of the turn is asked in it, with
// the earlier exchanges as thread. The open dialog ends with its turn
// (EndDialogs; confirm/closed reason ended; Stop too); Done and Cancel close
// it at once (resolved), and so does the card's Close while it waits for the
// agent (TestAskHumanDialogClosedWhileWaiting). The model is told of a
// Close: the next tool result of the turn carries tools.DialogClosedNote
// (agent.Run.Notes, ClosedNote; TestAskHumanDialogCloseTellsTheModel), read
// once by whichever of the turn's agents records a tool result next: the
// main agent, a plan's executors and evaluators, and a custom agent
// (subagent.Child.Notes; TestAskHumanDialogCloseReachesCustomAgents,
// TestAskHumanDialogCloseReachesAPlanExecutor). investigate, the browser
// agent and the reconcile loop's agents are never offered ask_human. A Close
// that crosses the agent's follow-up on the wire closes that follow-up, whose
// result says the user closed the dialog without answering
// (approval.ReasonClosed; TestAskHumanDialogCloseCrossesAFollowUp). A timeout
// or Stop on a pending question withdraws it (cancelled). Dialogs lists a
// session's open dialogs, so a reloaded client shows one waiting for the
// agent. Headless (govibe exec) asks at the terminal under the same timeout
// and records the reply as an answered confirmation (compaction keeps it
// with the user's other decisions); with no terminal the call fails with
// tools.ErrNoHuman.
//
// This package's tests drive the Broker and Questions on their own (a
// recording store, the client's callbacks); the end-to-end behaviour is
// tested in package engine (TestHeadlessAskHumanTimesOut, the resume and
// orphan tests) and over JSON-RPC in test/integration (ask_dialog*_test.go,
// ask_human_test.go).
package dialogs
