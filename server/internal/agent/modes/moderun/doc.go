// Package moderun is the working modes (package modes) as a session runs
// them: the session's mode and Phases progress as session state, the
// narrowing of every run's tools by the mode's current phase (the same
// Blocked map the scheduler's roles use, so a phase's whitelist is both
// offered and enforced), Phases mode's report tools, and Reconcile mode's
// controls and loop. It sees the engine only through Host; the scoped
// agents of the reconcile loop run through Agents, which the engine's
// turn implements.
//
// # The session's mode
//
// The mode is session state (modes.ModeKey), set by the webview header's
// picker or chat/setMode, govibe exec --mode, the "GoVibe: Working Mode…"
// quick pick, or /reconcile; every switch is published as a mode event, and
// session/load / mode/get carry the mode's record (ModeState) for its panel.
// Host gives a mode event, "does the session exist", "is it idle or
// reconciling", starting a reconcile turn, settings and Tr; Agents (the
// engine's reconcileAgents, an AgentFuncs) runs one scoped agent in a hidden
// child session (RunChild runs and finalizes it), takes a snapshot and
// publishes a notice. The turns' sequencing of runs is here too, on narrow
// structs of functions the engine fills (wiring_modes.go): ContinuePhases
// (PhasesTurn) and RunReconcile (ReconcileTurn); so are Plan mode's edits
// (PlanItems, ReplacePlanItems) that the engine's RunPlan applies.
//
// # Phases as run
//
// Each accepted report records modes.PhaseProgressKey and publishes a mode
// event; the run stops when the state moves on (agent.Run.StopWhen,
// Modes.StopWhen), and the next run gets the next state's tools; a refused
// report does not stop the run (the model reads why). The repeat guard
// (repeatGuard, phases.go) spans the runs a nudge starts. VERIFYING's
// run_shell_command is ChecksOnlyShell: only commands shellcheck classifies
// read-only, or checks (test runners, linters) run; anything else is refused
// before it runs. The webview's PhasesPanel shows the state, findings, plan
// and last log line.
//
// # Reconcile as run
//
// /reconcile <intent>, or a plain message in Reconcile mode while no approved
// run is under way (Modes.DraftText), drafts a manifest. A manifest written
// becomes the session's run (modes.ReconcileRunKey, unapproved) and the
// ReconcilePanel shows it in an editable text area. Approving
// (reconcile/approve, with the edited JSON or the file as it is) writes
// approved: true back and starts the loop as a turn (turn.reconcile):
// Modes.RunLoop: modes.RunReconcile over the turn's Agents (the one interface
// the engine implements), whose scoped agents (specifier, coder) each
// run in a hidden child session, so the loop never fills the session's model
// track, and whose events reach the parent under their tag (specifier:N,
// coder:N). Each gets the built-in tools minus its phase's refusals, writes
// under modes.WriteRule and shared files judged in guard_shared.go; its shell
// is ChecksOnlyShell, so tests cannot be changed through the shell either (sed
// -i, mv, rm, redirections are refused before they run).
//
// The auditor runs the manifest's testCommand (and e2eCommand) with shell.Run
// in the first root, no model call, no confirmation (the approval covered the
// command), and parses Diff (modes.ParseDiff). After each loop a snapshot
// (reason "reconcile loop"), and after each step the state is saved to session
// state and the status written into the manifest file. Stop is chat/cancel
// (the interrupted step runs again); reconcile/resume or "continue" in
// Reconcile mode resumes a stopped or restarted run at its saved step. The
// panel shows the loop (n/max), the running agent, a bar per loop of the
// failing-test count (baseline first) and Stop / Resume. A loop that ends
// (Ready or CrashLoopBackOff) answers its turn's message in the model track
// with the outcome (English, for the model), so the next turn knows how the
// run went; a stopped or failed loop leaves no prompt there. The controls'
// refusals (no drafted manifest, nothing to resume, run ended, no workspace, a
// manifest that does not parse) reach the user through i18n (server's
// reconcile_errors.go). Headless, `govibe exec --mode reconcile --approve all
// INTENT` drafts, approves and runs the loop in one process
// (exec_reconcile.go; the manifest is a protected file, which only --approve
// all writes headless).
package moderun
