package agent

import "strings"

// The "How to work" section of the system prompt follows the tools the
// model is offered: a rule about a tool it does not have only invites a
// call that will be refused. Every line names the tools it needs; with
// every tool offered (or offered == nil) the section is the full text,
// byte for byte, so the full profile's prompt never changes. The output
// depends only on the offered set, so each tool profile has one prompt
// and it is byte-stable.

type guidanceLine struct {
	text string
	// needs: the line is kept when any of these is offered (none: always).
	needs []string
}

const (
	gEdit  = "edit"
	gWrite = "write_file"
	gShell = "run_shell_command"
	gTodo  = "create_todo_list"
)

var guidanceLines = []guidanceLine{
	{"Read before you edit. `edit` replaces whole line ranges (1-based, inclusive) of the file as you last read it: read the lines first, then edit. An edit is refused if the file changed since you read it; re-read and retry.", []string{gEdit}},
	{"Prefer small, targeted edits over rewriting whole files. Never write placeholders such as \"... rest of code unchanged\".", []string{gEdit, gWrite}},
	{"", nil}, // the file-tools line, built by fileToolsLine
	{"Use `run_shell_command` for builds, tests and other programs. Commands run non-interactively with stdin closed; keep them bounded and quiet.", []string{gShell}},
	{"Several independent read-only tool calls in one reply run in parallel.", nil},
	{"After changing code, verify it: build or run the relevant tests, and check `get_diagnostics` when available.", []string{gEdit, gWrite}},
	{"If a change is refused or rejected by the user, read their reason and adapt; do not repeat the same action.", nil},
	{"When a request is large, plan it with `create_todo_list` when that tool is offered; items must be concrete and verifiable.", []string{gTodo}},
	{"Keep project knowledge current: when you learn something durable about the project, record it where the project keeps its notes.", []string{gEdit, gWrite}},
}

var (
	fileReaders = []string{"read_file", "find_in_file", "grep_search", "glob", "list_files"}
	fileWriters = []string{gEdit, gWrite}
)

// Guidance renders the "How to work" bullets for the offered tools; nil
// means every tool.
func Guidance(offered []string) string {
	has := func(n string) bool { return true }
	if offered != nil {
		set := map[string]bool{}
		for _, n := range offered {
			set[n] = true
		}
		has = func(n string) bool { return set[n] }
	}
	var b strings.Builder
	for _, l := range guidanceLines {
		text := l.text
		if text == "" {
			text = fileToolsLine(has)
		} else if !anyOf(l.needs, has) {
			text = ""
		}
		if text != "" {
			b.WriteString("- " + text + "\n")
		}
	}
	if offered != nil && !anyOf(fileWriters, has) && !has(gShell) {
		b.WriteString("- This model is offered no tool that changes files or runs commands: answer from what you can read, and tell the user what to change.\n")
	}
	return b.String()
}

// fileToolsLine points the model at the dedicated file tools it has.
func fileToolsLine(has func(string) bool) string {
	readers, writers := filter(fileReaders, has), filter(fileWriters, has)
	if len(readers) == 0 && len(writers) == 0 {
		return ""
	}
	var parts []string
	if len(readers) > 0 {
		parts = append(parts, codeList(readers, ", ")+" to read and search")
	}
	if len(writers) > 0 {
		parts = append(parts, codeList(writers, " and ")+" to change files")
	}
	s := "Use the dedicated tools for files: " + strings.Join(parts, "; ") + "."
	if has(gShell) {
		s += " Do not use the shell to read or write source files."
	}
	return s
}

func anyOf(names []string, has func(string) bool) bool {
	if len(names) == 0 {
		return true
	}
	for _, n := range names {
		if has(n) {
			return true
		}
	}
	return false
}

func filter(names []string, has func(string) bool) []string {
	var out []string
	for _, n := range names {
		if has(n) {
			out = append(out, n)
		}
	}
	return out
}

func codeList(names []string, sep string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, sep)
}
