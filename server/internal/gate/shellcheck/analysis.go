package shellcheck

import "fmt"

// Class is how much harm running a command can do. Classes are ordered: a
// larger value is worse, so the class of a whole command is the maximum of
// its parts. Where the OS sandbox works, ReadOnly (and, with
// sandbox.autoApprove, ReadsOutside and RunsCode) run without asking in
// the read-only, offline sandbox; without it every class asks unless a
// rule or the approval mode allows it (package approval). Mutating asks
// and then runs with the workspace writable; Dangerous always needs a
// human.
type Class int

const (
	// ReadOnly commands only read workspace files and harmless state
	// (git history, processes, the date).
	ReadOnly Class = iota
	// ReadsOutside commands read a path outside the workspace roots, which
	// read_file would refuse.
	ReadsOutside
	// Mutating commands change the workspace or the machine in ways the
	// analysis can see.
	Mutating
	// RunsCode commands run code the analysis cannot see: the project's own
	// (tests, scripts, Makefiles, package scripts), or a program named by an
	// environment variable, an option, a pager or an interactive program.
	RunsCode
	// Dangerous commands may destroy data, escape the workspace, read
	// secrets, connect a shell to the network or send local data over it,
	// gain privileges, or hide what they really run.
	Dangerous
)

// String returns "read-only", "reads-outside", "mutating", "runs-code" or
// "dangerous".
func (c Class) String() string {
	switch c {
	case ReadOnly:
		return "read-only"
	case ReadsOutside:
		return "reads-outside"
	case Mutating:
		return "mutating"
	case RunsCode:
		return "runs-code"
	case Dangerous:
		return "dangerous"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// Describe is the class in words a user reads on a command's card.
func (c Class) Describe() string {
	switch c {
	case ReadOnly:
		return "read-only command"
	case ReadsOutside:
		return "reads files outside the workspace"
	case Mutating:
		return "changes files or state"
	case RunsCode:
		return "runs code the analysis cannot see"
	case Dangerous:
		return "dangerous command"
	}
	return c.String()
}

// MarshalText makes a Class read well in JSON shown to the user.
func (c Class) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("shellcheck: invalid class %d", int(c))
	}
	return []byte(c.String()), nil
}

// Valid reports whether c is one of the classes.
func (c Class) Valid() bool { return c >= ReadOnly && c <= Dangerous }

// Workspace tells the analysis where the command runs and which directories
// it may write to.
type Workspace struct {
	// Roots are absolute workspace roots; writes outside them are dangerous.
	Roots []string
	// Cwd is the directory the command starts in; "" means Roots[0]. A
	// relative Cwd is taken relative to Roots[0].
	Cwd string
	// Home is the user's home directory, used to resolve ~ and $HOME. When
	// empty, home paths are never inside the workspace.
	Home string
}

// Tool names used in hints; they are the model-visible tool names.
const (
	ToolReadFile  = "read_file"
	ToolWriteFile = "write_file"
	ToolEditFile  = "edit_file"
)

// ToolHint says that a dedicated tool must be used instead of the shell.
type ToolHint struct {
	Tool    string `json:"tool"`
	Message string `json:"message"`
}

// SubCommand is one simple command the shell would run, after unwrapping
// wrappers such as env, timeout or bash -c.
type SubCommand struct {
	// Name is the command name as the shell resolves it (quotes and escapes
	// removed); for a name computed at run time it is the source text.
	Name string `json:"name"`
	// Args are the arguments, literal where resolvable and the source text
	// otherwise (e.g. "$X").
	Args []string `json:"args,omitempty"`
	// Literal is false when the name or an argument is computed at run time.
	Literal bool `json:"literal"`
	// Via names the wrappers this command runs under ("timeout", "bash -c").
	Via []string `json:"via,omitempty"`
	// Writes are the files written by this command's output redirections
	// (descriptor duplications and /dev/null are not writes).
	Writes  []string `json:"writes,omitempty"`
	Class   Class    `json:"class"`
	Reasons []string `json:"reasons,omitempty"`
	// top is the reason that gave the command its class.
	top string
	// check marks a test runner, linter or type checker: it runs project
	// code only to report on it.
	check bool
	// mutates is set once anything raised the command for a change.
	mutates bool
}

// OnlyChecks reports whether every command of the analysis is read-only or
// a test runner, linter or type checker run without options that write
// (go test, npm test, npm run lint, cargo test, pytest). Evaluators, which
// must not change anything, may run those.
func OnlyChecks(an Analysis) bool {
	if an.ParseError != "" || an.Class == Dangerous {
		return false
	}
	for _, c := range an.Commands {
		switch {
		case len(c.Writes) > 0 || c.mutates:
			return false
		case c.Class == ReadOnly:
		case c.Class == RunsCode && c.check:
		default:
			return false
		}
	}
	return true
}

// Text is the command as one line, words joined by single spaces; it is what
// permission patterns are matched against.
func (s SubCommand) Text() string {
	n := len(s.Name)
	for _, a := range s.Args {
		n += 1 + len(a)
	}
	b := make([]byte, 0, n)
	b = append(b, s.Name...)
	for _, a := range s.Args {
		b = append(b, ' ')
		b = append(b, a...)
	}
	return string(b)
}

// Analysis is the verdict on one command line.
type Analysis struct {
	// Class is the worst class of any sub-command (Dangerous on parse error).
	Class    Class        `json:"class"`
	Commands []SubCommand `json:"commands"`
	// Reasons explain the class in words a user understands.
	Reasons []string `json:"reasons,omitempty"`
	// Reason is one line saying why the command has its class, for the
	// card ("read-only command", "runs code the analysis cannot see: go
	// test runs the project's tests").
	Reason string `json:"reason"`
	// UseTool is set when the command reads or writes workspace files that
	// a dedicated tool handles; the caller should refuse and name the tool.
	UseTool *ToolHint `json:"useTool,omitempty"`
	// ParseError is the parser's message when the command is not valid bash.
	ParseError string `json:"parseError,omitempty"`
}
