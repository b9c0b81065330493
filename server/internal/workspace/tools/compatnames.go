package tools

import "strings"

// ForeignTool is one GoVibe tool as the agents people arrive from name
// it. It is the one table of those names: hooks show a tool to a hook
// script under its Claude Code (or Copilot) name, and commands and agents
// written for those tools name it so in their tool lists.
type ForeignTool struct {
	// GoVibe is the tool's name here.
	GoVibe string
	// Claude is Claude Code's name: the hook matcher and tool_name, the
	// permission rule's tool, a command's allowed-tools entry.
	Claude string
	// Copilot is GitHub Copilot CLI's toolName in its hooks ("" when it
	// has none).
	Copilot string
}

// foreignTools lists every GoVibe tool another agent has a name for.
// Sub-agent tools (agent_*, investigate) are Claude's Task, MCP tools
// keep their mcp__server__tool names, which Claude Code uses too; see
// ForeignToolOf.
var foreignTools = []ForeignTool{
	{GoVibe: "run_shell_command", Claude: "Bash", Copilot: "bash"},
	{GoVibe: "read_file", Claude: "Read", Copilot: "view"},
	{GoVibe: "write_file", Claude: "Write", Copilot: "create"},
	{GoVibe: "edit", Claude: "Edit", Copilot: "edit"},
	{GoVibe: "glob", Claude: "Glob", Copilot: "glob"},
	{GoVibe: "grep_search", Claude: "Grep", Copilot: "grep"},
	{GoVibe: "list_files", Claude: "LS"},
	{GoVibe: "web_fetch", Claude: "WebFetch", Copilot: "web_fetch"},
	{GoVibe: "create_todo_list", Claude: "TodoWrite"},
	{GoVibe: "ask_human", Claude: "AskUserQuestion"},
}

// TaskTool is Claude Code's name for starting a sub-agent; AgentTool is
// the name newer Claude Code versions give the same tool. Hook matchers
// and tool lists may use either.
const (
	TaskTool  = "Task"
	AgentTool = "Agent"
)

// IsSubAgentTool says whether a GoVibe tool starts a sub-agent.
func IsSubAgentTool(name string) bool {
	return name == "investigate" || strings.HasPrefix(name, "agent_") && len(name) > len("agent_")
}

// ForeignToolOf is the table entry of a GoVibe tool; ok is false for a
// tool no other agent names (its GoVibe name is then the only one).
func ForeignToolOf(govibe string) (ForeignTool, bool) {
	for _, t := range foreignTools {
		if t.GoVibe == govibe {
			return t, true
		}
	}
	if IsSubAgentTool(govibe) {
		return ForeignTool{GoVibe: govibe, Claude: TaskTool}, true
	}
	return ForeignTool{}, false
}

// ClaudeName is the name Claude Code gives a GoVibe tool; a tool it has
// no name for (find_in_file, an MCP tool's mcp__server__tool) keeps its
// own.
func ClaudeName(govibe string) string {
	if t, ok := ForeignToolOf(govibe); ok {
		return t.Claude
	}
	return govibe
}

// CopilotName is Copilot CLI's toolName for a GoVibe tool, or the GoVibe
// name when Copilot has none.
func CopilotName(govibe string) string {
	if t, ok := ForeignToolOf(govibe); ok && t.Copilot != "" {
		return t.Copilot
	}
	return govibe
}

// vsCodeNames are the names only VS Code (prompt files, custom agents,
// chat modes) and Claude Code's tool lists use for tools or sets of tools
// that are not one table entry. Keys are lower case. VS Code's current
// names are "set/tool" (`edit/editFiles`, `web/fetch`,
// `search/codebase`); older files name the tool alone (`editFiles`,
// `runCommands`). See
// https://code.visualstudio.com/docs/copilot/reference/copilot-vscode-features#_chat-tools.
var vsCodeNames = map[string][]string{
	"multiedit":          {"edit"},
	"notebookedit":       {"edit"},
	"fetch":              {"web_fetch"},
	"codebase":           {"grep_search", "glob", "list_files", "read_file", "find_in_file"},
	"search":             {"grep_search", "glob", "find_in_file"},
	"problems":           {"get_diagnostics"},
	"editfiles":          {"edit", "write_file"},
	"createfile":         {"write_file"},
	"createdirectory":    {"create_directory"},
	"readfile":           {"read_file"},
	"listdirectory":      {"list_files"},
	"filesearch":         {"glob"},
	"textsearch":         {"grep_search"},
	"usages":             {"grep_search"},
	"runcommands":        {"run_shell_command"},
	"runinterminal":      {"run_shell_command"},
	"terminalcommand":    {"run_shell_command"},
	"runterminalcommand": {"run_shell_command"},
	"getterminaloutput":  {"run_shell_command"},
	"runtasks":           {"run_shell_command"},
	"runtests":           {"run_shell_command"},
	"todos":              {"create_todo_list"},
}

// vsCodeSets are VS Code's tool sets, written in lower case as VS Code
// writes them; Claude Code's capitalised names (`Edit`, `Read`) are single
// tools, so the two are told apart by case.
var vsCodeSets = map[string][]string{
	"edit":    {"edit", "write_file", "create_directory"},
	"read":    {"read_file", "list_files", "get_diagnostics"},
	"search":  {"grep_search", "glob", "find_in_file", "list_files"},
	"execute": {"run_shell_command"},
	"web":     {"web_fetch"},
	"todo":    {"create_todo_list"},
}

// CompatNames is what a tool name from a Claude Code or VS Code file
// stands for in GoVibe: the mapped names, or nil when it is not one of
// theirs (it may still be a GoVibe name). A Claude argument pattern
// (`Bash(git status:*)`) and VS Code's '#' prefix are ignored; a VS Code
// "set/tool" name maps by its tool, else by its set (`web/fetch`,
// `edit/editFiles`, `execute/runInTerminal`). Task and Agent stand for no
// fixed tool (each sub-agent is its own) and map to nil here.
//
// A bare name that is also one of GoVibe's own (`edit`) means GoVibe's
// tool here: a GoVibe or Claude file lists tools, not VS Code's sets.
// VSCodeNames reads a VS Code file, where `edit` is the set.
func CompatNames(name string) []string { return compatNames(name, false) }

// VSCodeNames is CompatNames for a VS Code file (.agent.md, .chatmode.md,
// .prompt.md): a lower-case set name (`edit`, `read`) is the set.
func VSCodeNames(name string) []string { return compatNames(name, true) }

func compatNames(name string, vscode bool) []string {
	bare := BareToolName(name)
	if set, tool, ok := strings.Cut(bare, "/"); ok && !strings.HasPrefix(bare, "mcp__") {
		if m := compatNames(tool, vscode); m != nil {
			return m
		}
		return vsCodeSets[set]
	}
	if m, ok := vsCodeSets[bare]; ok && (vscode || !govibeName(bare)) {
		return m
	}
	n := strings.ToLower(bare)
	for _, t := range foreignTools {
		if strings.ToLower(t.Claude) == n {
			return []string{t.GoVibe}
		}
	}
	return vsCodeNames[n]
}

// BareToolName strips a Claude argument pattern and a '#' prefix.
func BareToolName(raw string) string {
	n := strings.TrimSpace(raw)
	if i := strings.IndexByte(n, '('); i > 0 {
		n = n[:i]
	}
	return strings.TrimSpace(strings.TrimPrefix(n, "#"))
}

// govibeName reports whether name is one of GoVibe's own tools that a
// VS Code set shares its name with.
func govibeName(name string) bool {
	for _, t := range foreignTools {
		if t.GoVibe == name {
			return true
		}
	}
	return false
}
