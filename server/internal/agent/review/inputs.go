package review

import (
	"fmt"
	"strings"
)

// PlanInput is what the plan reviewer sees.
type PlanInput struct {
	Request string
	// Plan is the plan as the agent wrote it (JSON or text).
	Plan string
	// Attempt counts this plan's reviews, 1 for the first.
	Attempt int
	// Previous are the problems of the last rejection, so the reviewer can
	// check they were fixed.
	Previous []Problem
}

// Prompt renders the input for the plan reviewer.
func (in PlanInput) Prompt() string {
	var b strings.Builder
	section(&b, "User's request", in.Request)
	if in.Attempt > 1 && len(in.Previous) > 0 {
		section(&b, fmt.Sprintf("Problems you found in the previous version (this is attempt %d)", in.Attempt), Format(in.Previous))
	}
	section(&b, "Plan", in.Plan)
	return b.String()
}

// EditInput is what the edit reviewer sees.
type EditInput struct {
	Request string
	// Intent is what the agent said about the change (its message text and
	// the tool call's arguments).
	Intent string
	Path   string
	IsNew  bool
	Delete bool
	Diff   string
	// Context is the file before the change, when small enough.
	Context  string
	Findings []Problem
}

// Prompt renders the input for the edit reviewer.
func (in EditInput) Prompt() string {
	var b strings.Builder
	section(&b, "User's request", in.Request)
	section(&b, "What the agent said about this change", in.Intent)
	what := "Change to " + in.Path
	switch {
	case in.IsNew:
		what = "New file " + in.Path
	case in.Delete:
		what = "Deletion of " + in.Path
	}
	section(&b, what+" (unified diff)", in.Diff)
	if in.Context != "" {
		section(&b, "The file before the change", in.Context)
	}
	if len(in.Findings) > 0 {
		section(&b, "Static findings", Format(in.Findings))
	} else {
		section(&b, "Static findings", "none (syntax checked where a parser exists)")
	}
	return b.String()
}

// RecentCommand is a command the session already ran.
type RecentCommand struct {
	Command  string
	ExitCode int
}

// ShellInput is what the shell reviewers see.
type ShellInput struct {
	Request string
	Todo    string
	Command string
	// Original is the agent's command when the editor rewrote it.
	Original string
	Cwd      string
	OS       string
	Shell    string
	Class    string
	Reasons  []string
	Recent   []RecentCommand
	// Previous are the security reviewer's problems with the last version,
	// for the editor to address.
	Previous []Problem
}

// SecurityPrompt renders the input for the security reviewer.
func (in ShellInput) SecurityPrompt() string {
	var b strings.Builder
	section(&b, "User's request", in.Request)
	section(&b, "Current todo item", orNone(in.Todo))
	section(&b, "Command", in.Command)
	if in.Original != "" && in.Original != in.Command {
		section(&b, "The agent's original command (rewritten by the command editor)", in.Original)
	}
	section(&b, "Working directory", in.Cwd+" ("+in.OS+", "+in.Shell+")")
	an := in.Class
	if len(in.Reasons) > 0 {
		an += ":\n- " + strings.Join(in.Reasons, "\n- ")
	}
	section(&b, "Static analysis", an)
	section(&b, "Last commands (oldest first)", recentText(in.Recent))
	return b.String()
}

// EditorPrompt renders the input for the shell editor.
func (in ShellInput) EditorPrompt() string {
	var b strings.Builder
	section(&b, "Command", in.Command)
	section(&b, "Working directory", in.Cwd+" ("+in.OS+", "+in.Shell+")")
	section(&b, "Current todo item", orNone(in.Todo))
	if len(in.Previous) > 0 {
		section(&b, "The security reviewer rejected the last version; address these problems if a rewrite can", Format(in.Previous))
	}
	return b.String()
}

func recentText(rs []RecentCommand) string {
	if len(rs) == 0 {
		return "none"
	}
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "$ %s  (exit %d)\n", r.Command, r.ExitCode)
	}
	return strings.TrimRight(b.String(), "\n")
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "none"
	}
	return s
}

func section(b *strings.Builder, title, body string) {
	b.WriteString("## " + title + "\n")
	b.WriteString(strings.TrimRight(body, "\n"))
	b.WriteString("\n\n")
}
