// Package hooks runs the user's lifecycle hooks: commands configured, in
// Claude Code's format, for events such as PreToolUse or Stop. A hook gets
// the event as JSON on stdin. Exit 0 continues (stdout may be a JSON reply
// that adds context or changes a tool's input), exit 2 blocks with stderr
// as the reason the model reads, and anything else is a logged failure
// that never blocks. Project hooks load only in a trusted workspace.
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
// next message. A hook's timeout is in seconds (default 60); a negative one is
// reported as a problem. govibe.hooks is a user-only setting, an object the
// settings generator renders as a JSON Schema for settings.json validation.
package hooks
