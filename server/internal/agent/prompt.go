package agent

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

//go:embed prompts/base.md
var basePrompt string

// HostInfo is the environment section of the system prompt. It must only
// hold facts that do not change during a session: anything that changes
// goes in the per-message Context block, so the prompt prefix stays
// byte-identical and the provider's cache keeps hitting.
type HostInfo struct {
	OS            string
	PathSeparator string
	LineEnding    string
	Shell         string
	Roots         []string
	// Date is the session's date (YYYY-MM-DD), fixed when the session
	// starts so the prompt stays byte-identical across midnight.
	Date string
	// Git says, per root at session start, whether it is a git
	// repository, its branch and whether its tree was dirty.
	Git []string
}

// SystemPrompt builds the main agent's system prompt in Agent mode with
// every tool: base, host, language.
func SystemPrompt(h HostInfo, language string, extra ...string) string {
	return SystemPromptFor(h, language, toolpolicy.Situation{Role: toolpolicy.Main}, nil, extra...)
}

// SystemPromptFor builds the system prompt of a run in sit: its contract
// (role, mode and phase) and tool guidance follow the offered tools (nil:
// every tool). It depends only on its arguments, so a session's prompt
// stays byte-identical while they do.
func SystemPromptFor(h HostInfo, language string, sit toolpolicy.Situation, offered []tools.Tool, extra ...string) string {
	o := newOfferedSet(offered)
	var b strings.Builder
	b.WriteString(strings.NewReplacer("{{contract}}", contract(sit, o), "{{how-to-work}}", guidance(sit, o)).Replace(strings.TrimSpace(basePrompt)))
	b.WriteString("\n\n# Environment\n")
	if h.Date != "" {
		fmt.Fprintf(&b, "- Date: %s\n", h.Date)
	}
	fmt.Fprintf(&b, "- OS: %s; path separator %s; %s line endings; shell: %s\n", h.OS, h.PathSeparator, h.LineEnding, h.Shell)
	if len(h.Roots) > 0 {
		fmt.Fprintf(&b, "- Workspace roots: %s\n", strings.Join(h.Roots, ", "))
	}
	for _, g := range h.Git {
		fmt.Fprintf(&b, "- Git (at session start): %s\n", g)
	}
	if instr := LanguageInstruction(language); instr != "" {
		b.WriteString("\n# Language\n")
		b.WriteString(instr)
		b.WriteString("\n")
	}
	for _, e := range extra {
		if strings.TrimSpace(e) != "" {
			b.WriteString("\n")
			b.WriteString(strings.TrimSpace(e))
			b.WriteString("\n")
		}
	}
	return b.String()
}

// LanguageInstruction maps govibe.language to the reply-language rule.
func LanguageInstruction(lang string) string {
	switch strings.ToLower(lang) {
	case "zh-cn", "zh":
		return "Always reply to the user in Simplified Chinese (简体中文). Code, identifiers and commands stay as they are."
	case "en":
		return "Always reply to the user in English."
	default:
		return "Reply in the language the user writes in."
	}
}

// ContextState is what changes between messages.
type ContextState struct {
	EditEnabled   bool
	TodoRemaining int
	HasTodo       bool
	ActiveFile    string
	Selection     string
	// Mode and Phase are where the session stands when the message is
	// sent (a Phases state, a reconcile step; "" for Agent mode).
	Mode  modes.Mode
	Phase string
	// Skills are the active skills (their instructions apply).
	Skills []string
	// Memory is a one-time reminder that the project memory's inventory
	// misses files the last turn changed.
	Memory string
}

// ContextBlock renders the state prepended to each new user message.
func ContextBlock(s ContextState) string {
	var b strings.Builder
	b.WriteString("<context>\n")
	if s.Mode != "" && s.Mode != modes.Agent {
		mode := "Mode: " + modeName(s.Mode)
		if s.Mode == modes.Phases {
			mode += ", phase " + string(phasesState(s.Phase))
		}
		b.WriteString(mode + "\n")
	}
	b.WriteString(editLine(s) + "\n")
	if s.HasTodo {
		fmt.Fprintf(&b, "Todo: %d remaining\n", s.TodoRemaining)
	}
	if len(s.Skills) > 0 {
		fmt.Fprintf(&b, "Active skills: %s (load_skill to re-read one)\n", strings.Join(s.Skills, ", "))
	}
	if s.Memory != "" {
		b.WriteString(s.Memory + "\n")
	}
	if s.ActiveFile != "" {
		fmt.Fprintf(&b, "Active editor: %s\n", s.ActiveFile)
	}
	if s.Selection != "" {
		sel := s.Selection
		if len(sel) > 2000 {
			sel = sel[:2000] + "…"
		}
		fmt.Fprintf(&b, "Selection:\n%s\n", sel)
	}
	b.WriteString("</context>\n\n")
	return b.String()
}

// editLine says truthfully whether this message's run may change files:
// the user's toggle first, then the mode.
func editLine(s ContextState) string {
	switch {
	case !s.EditEnabled:
		return "Edit: OFF (write tools and shell commands are disabled by the user)"
	case s.Mode == modes.Plan:
		return "Edit: OFF (Plan mode)"
	case s.Mode == modes.Phases && phasesState(s.Phase) != modes.Patching:
		return "Edit: OFF (" + string(phasesState(s.Phase)) + " phase)"
	case s.Mode == modes.Reconcile:
		return "Edit: the manifest only (Reconcile mode)"
	}
	return "Edit: ON"
}

func phasesState(phase string) modes.State {
	if phase == "" {
		return modes.Exploring
	}
	return modes.State(phase)
}

func modeName(m modes.Mode) string {
	if m == "" {
		return ""
	}
	return strings.ToUpper(string(m[:1])) + string(m[1:])
}
