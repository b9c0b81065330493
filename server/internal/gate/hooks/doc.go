// Package hooks runs the user's lifecycle hooks: commands configured, in
// Claude Code's format (and GitHub Copilot's and VS Code's, which read
// the same .github/hooks folder), for events such as PreToolUse or Stop.
// Claude Code's documentation is the contract: a hook reads the event on
// stdin with Claude Code's tool names and tool_input fields (Bash,
// command; Edit, file_path, old_string…), the common fields session_id,
// transcript_path, cwd, permission_mode and hook_event_name, and
// $CLAUDE_PROJECT_DIR. Exit 0 continues (stdout may be a JSON reply),
// exit 2 blocks with stderr as the reason the model reads, anything else
// is a logged failure that never blocks. Copilot's files (version 1,
// camelCase events) get Copilot's payload (toolName, toolArgs) instead.
// Project hooks load only in a trusted workspace. Hooks run unsandboxed
// (they are the user's own programs) with the commands' environment
// allowlist plus the env their configuration names.
//
// # Events
//
// Manager loads the configuration lazily (lazyload.Loader), reports its
// problems once per load, fires hooks and wraps every offered tool when hooks
// exist (the wrapper keeps each tool's definition, so the request prefix does
// not change). The engine fires UserPromptSubmit, Stop, SubagentStop, Session*
// and Notification; the compactor's host fires PreCompact before every
// compaction, automatic ones included (trigger: auto). Runs are hook chat
// events, a one-line notice in warning colour when the hook blocked.
//
// What SessionStart hooks print waits in session state (hooks.sessionContext)
// and joins the session's first message (<hook_context>). A Stop hook that
// blocks when the agent finished sends it back to work with the hook's reason
// as a user message (<hook_feedback>), at most 3 times per turn, later runs
// telling the hooks stop_hook_active (the engine's hooks_session.go). /clear
// ends the model's session and starts another, as Claude Code does: SessionEnd
// (reason: clear), then SessionStart (source: clear), whose context joins the
// next message. A hook's timeout is in seconds (default 60, at most 600: a
// larger one is cut to 600 and reported as a problem; a negative one drops
// the hook, reported too). The sidecar's own work for an event's hooks
// (transcript, encoding, replies) runs under a CPU watchdog. govibe.hooks is a user-only setting, an object the
// settings generator renders as a JSON Schema for settings.json validation.
package hooks
