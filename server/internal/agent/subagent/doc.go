// Package subagent runs bounded sub-agents as tools: the built-in
// read-only codebase investigator and custom agents defined in Markdown
// files with YAML frontmatter. A sub-agent has its own context; the
// calling agent receives only its result.
//
// # Custom agents
//
// agent_<name> tools come from ~/.govibe/agents and, in a trusted workspace,
// .claude/agents/*.md (Claude Code: name, description, tools as a list or
// comma string, no tools = every built-in), .github/agents/*.agent.md (VS
// Code: name from the file, description, tools; handoffs ignored) and
// .govibe/agents (wins a name clash) (defs.go, compat.go; loaded by the
// engine's subagent.go). Compat tool names map through tools.CompatNames into
// the same allow-list (names GoVibe has no tool for are dropped; none left is
// a reported problem); compat model names belong to other products and are
// ignored.
//
// # Running
//
// Host opens a hidden child session of the turn (Child: its sink, first
// message, finish) and gives the model of an agent or the browser, the
// browser's reach, the SubagentStop hooks and Tr (tool.go, browser_tool.go;
// the browser run itself is package browser). investigate is read-only and
// never offered ask_human. A child session records where it ran in the parent
// (sessions.parent_message_id: the parent's message open then; parent_call_id:
// the tool call that started it, empty for a reconcile step), so session/load
// can return the sub-agents of the page's messages
// (SessionLoadResult.subAgents, each with at most its newest 200 messages) and
// the webview can page older ones in.
package subagent
