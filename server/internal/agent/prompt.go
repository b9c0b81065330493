package agent

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/govibe/govibe/server/internal/tools"
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
}

// SystemPrompt builds the fixed system prompt for every tool: base, host,
// language.
func SystemPrompt(h HostInfo, language string, extra ...string) string {
	return SystemPromptFor(h, language, nil, extra...)
}

// SystemPromptFor builds the system prompt whose tool guidance follows the
// offered tools (nil: every tool, the full profile's prompt). It depends
// only on its arguments, so a session's prompt stays byte-identical while
// its tool profile does.
func SystemPromptFor(h HostInfo, language string, offered []tools.Tool, extra ...string) string {
	var b strings.Builder
	b.WriteString(strings.Replace(strings.TrimSpace(basePrompt), "{{how-to-work}}", Guidance(offered), 1))
	b.WriteString("\n\n# Environment\n")
	fmt.Fprintf(&b, "- OS: %s\n- Path separator: %s\n- Line ending: %s\n- Shell: %s\n", h.OS, h.PathSeparator, h.LineEnding, h.Shell)
	if len(h.Roots) > 0 {
		fmt.Fprintf(&b, "- Workspace roots: %s\n", strings.Join(h.Roots, ", "))
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
	Phase         string
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
	if s.EditEnabled {
		b.WriteString("Edit: ON\n")
	} else {
		b.WriteString("Edit: OFF (write tools and shell commands are disabled by the user)\n")
	}
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
