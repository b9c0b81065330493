// Package slashcmd is the chat's slash commands as a session runs them:
// the built-in ones (/compact, /btw, /help, /new, /clear, /init, /model,
// /sessions, /skills, /undo, /cost, /spec, /reconcile), the custom
// markdown commands of the command folders (package customcmd, reloaded
// when those folders change), the connected MCP servers' prompts
// (/mcp:server:prompt), and the limits a custom command's frontmatter
// puts on the turn it starts (limits.go).
//
// A command either answers the message itself (a notice in the session's
// UI track, closed by turnFinished) or turns it into the text of a turn;
// the engine's Send starts that turn. The package sees the engine only
// through Host; the registry itself is registry.go.
//
// # What it needs
//
// Host (the engine's slashHost, slash.go): create and list sessions, "is the
// session idle", publish a notice and a turnFinished, start a compaction, the
// session's model, snapshots and restore, usage, Tr; the store for the notice
// messages, the model track and session state. Options: home, roots, headless
// approval, trust, and the skills, hooks, Reconcile and MCP capabilities
// through one-to-three-method interfaces.
//
// # Matching
//
// Custom commands (then /mcp: prompts, then built-ins) are matched in the
// engine's Send through Commands.Run; commands/list answers the input's
// autocomplete. The custom registry is rebuilt (a lazyload.Loader whose stamp
// is customcmd.Stamp: each file's path, size and time; a few stats) whenever
// the command folders' stamp differs from the one it was loaded under, so a
// command file added, edited or removed during a session is offered at the
// next keystroke with no watcher or restart. A file that does not load (a
// malformed header, named at the file line to fix by frontmatter, even for a
// quote or bracket left open; a file name no one can type as a command) and
// each conflict (project beats user, user beats built-in, naming both files)
// is a notice.
//
// # A custom command's limits
//
// A custom command's model and allowedTools hold for the turn it starts
// (turn.limits, a Limits): every run of that turn (free phase, executors,
// evaluators) uses the model, and tools the list does not name are blocked
// (not offered, refused if called); Claude and prompt-file names (Read,
// Bash(git:*), codebase…) map to GoVibe's (tools.CompatNames). The limits
// outlive the process: a plan the turn creates carries them
// (scheduler.Plan.Model, AllowedTools; StampPlan/FromPlan), so every resume of
// it (continue, Run plan, after a restart) runs under them, and turn.limits
// session state holds the latest turn's (RecordTurn/RestoreTurn), which a run
// parked on a question resumes with. A compaction during the turn repeats its
// prefix (its model's prompt, its allowed tools), as do the context estimate
// and govibe exec's init line (turntools.Service.Offered: the session's latest turn;
// exec prints init after Send matched the command, holding the events until
// then).
//
// # Shell commands and files in a command
//
// A custom command's file may run shell commands as it expands (Claude's
// !`cmd`, Gemini's !{cmd}, whose {{args}} are shell-escaped) and attach
// files (@path, Gemini's @{path}, read as @-mentions through read_file).
// The commands become Outcome.Shell (shell.go): refused before anything
// runs in an untrusted workspace, or for a Claude command whose
// allowed-tools leave out Bash; otherwise the engine runs each as the
// turn's run_shell_command (approval, the command's allow rules, the OS
// sandbox) and puts its bounded output in the message before the model is
// asked; a refused command ends the turn and the message is not sent.
//
// # /init, /clear, /new
//
// /init explores each root itself (package initscan: the file listing, the
// README, at most 10 further files scored by name, size and folder, noise
// folders and tests demoted) and sends that survey with the task; its writes
// are ordinary edits, so headless it needs --approve edits, and with --approve
// none it is refused before the model is asked, naming the flag. /clear
// empties the session's model track (the transcript stays, context files are
// sent again) and fires SessionEnd then SessionStart; /new opens another
// session.
package slashcmd
