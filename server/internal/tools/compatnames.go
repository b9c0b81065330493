package tools

import "strings"

// compatNames maps the tool names Claude Code (commands, agents) and VS
// Code (prompt files, custom agents) use to GoVibe's, so their files
// work as they are. Keys are lower case.
var compatNames = map[string][]string{
	"read":         {"read_file"},
	"write":        {"write_file"},
	"edit":         {"edit"},
	"multiedit":    {"edit"},
	"bash":         {"run_shell_command"},
	"grep":         {"grep_search"},
	"glob":         {"glob"},
	"ls":           {"list_files"},
	"webfetch":     {"web_fetch"},
	"fetch":        {"web_fetch"},
	"codebase":     {"grep_search", "glob", "list_files", "read_file", "find_in_file"},
	"search":       {"grep_search", "glob", "find_in_file"},
	"problems":     {"get_diagnostics"},
	"editfiles":    {"edit", "write_file"},
	"runcommands":  {"run_shell_command"},
	"todowrite":    {"create_todo_list"},
	"notebookedit": {"edit"},
}

// CompatNames is what a tool name from a Claude Code or VS Code file
// stands for in GoVibe: the mapped names, or nil when it is not one of
// theirs (it may still be a GoVibe name). A Claude argument pattern
// (`Bash(git status:*)`) and VS Code's '#' prefix are ignored.
func CompatNames(name string) []string {
	return compatNames[strings.ToLower(BareToolName(name))]
}

// BareToolName strips a Claude argument pattern and a '#' prefix.
func BareToolName(raw string) string {
	n := strings.TrimSpace(raw)
	if i := strings.IndexByte(n, '('); i > 0 {
		n = n[:i]
	}
	return strings.TrimSpace(strings.TrimPrefix(n, "#"))
}
