package customcmd

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Commands that run shell commands and attach files as they expand, as
// their tools document them:
//
//   - Claude Code (slash commands, "Bash command execution"): !`cmd` runs
//     before the command is sent and its output is put in its place; the
//     command's allowed-tools must include Bash. "File references": @path
//     attaches the file.
//   - Gemini CLI (custom commands, "Executing shell commands with !{...}"):
//     the braces may nest; {{args}} inside !{...} is shell-escaped,
//     outside it is raw. "Injecting file content with @{...}": @{path}
//     attaches the file.
//
// Here the expansion only marks the commands (ShellCall, a token where
// the output goes); the engine runs them as run_shell_command calls of the
// turn (approval, sandbox, trusted workspace only) and puts the output in.
// @path and @{path} become @-mentions, which are read through read_file
// (workspace boundary, Read rules, special files refused, size bound).

// ShellCall is one command a command file runs as it expands.
type ShellCall struct {
	// Token stands in the text where the command's output goes.
	Token   string
	Command string
}

// maxShellCalls bounds the commands one command file may run.
const maxShellCalls = 10

// ExpandShell is Expand that also finds the shell commands the template
// runs (Claude's !`cmd`, Gemini's !{cmd}): each is replaced by a token
// made with nonce and returned in order. Gemini's @{path} becomes the
// mention @path.
func (c Command) ExpandShell(args string, ed Editor, nonce string) (string, []ShellCall, error) {
	return c.expand(args, ed, nonce)
}

// RunsShell reports whether the command's template runs shell commands.
func (c Command) RunsShell() bool {
	_, calls, err := c.expand("", Editor{}, "x")
	return err == nil && len(calls) > 0
}

// token is the placeholder of call i.
func token(nonce string, i int) string { return fmt.Sprintf("[[govibe-shell-%s-%d]]", nonce, i) }

// geminiShell replaces each !{...} of t with a token, escaping {{args}}
// inside it for the shell; usedArgs says whether one held {{args}}.
func geminiShell(t, args, nonce string) (string, []ShellCall, bool, error) {
	var b strings.Builder
	var calls []ShellCall
	used := false
	for {
		i := strings.Index(t, "!{")
		if i < 0 {
			b.WriteString(t)
			break
		}
		depth, end := 0, -1
		for j := i + 1; j < len(t) && end < 0; j++ {
			switch t[j] {
			case '{':
				depth++
			case '}':
				if depth--; depth == 0 {
					end = j
				}
			}
		}
		if end < 0 {
			return "", nil, false, fmt.Errorf("a !{ has no closing brace: %q", clip(t[i:]))
		}
		cmd := t[i+2 : end]
		if strings.Contains(cmd, "{{args}}") {
			used = true
			q, err := syntax.Quote(args, syntax.LangBash)
			if err != nil {
				return "", nil, false, fmt.Errorf("the arguments cannot be passed to a shell command: %v", err)
			}
			cmd = strings.ReplaceAll(cmd, "{{args}}", q)
		}
		if len(calls) == maxShellCalls {
			return "", nil, false, fmt.Errorf("the command runs more than %d shell commands", maxShellCalls)
		}
		tok := token(nonce, len(calls))
		calls = append(calls, ShellCall{Token: tok, Command: strings.TrimSpace(cmd)})
		b.WriteString(t[:i] + tok)
		t = t[end+1:]
	}
	return b.String(), calls, used, nil
}

// claudeShell replaces each !`cmd` of t with a token. The command ends at
// the next backquote on the same line.
func claudeShell(t, nonce string) (string, []ShellCall, error) {
	var b strings.Builder
	var calls []ShellCall
	for {
		i := strings.Index(t, "!`")
		if i < 0 {
			b.WriteString(t)
			break
		}
		end := strings.IndexAny(t[i+2:], "`\n")
		if end < 0 || t[i+2+end] != '`' {
			// Not a command (a lone "!`" in prose): left as written.
			b.WriteString(t[:i+2])
			t = t[i+2:]
			continue
		}
		cmd := strings.TrimSpace(t[i+2 : i+2+end])
		if cmd == "" {
			b.WriteString(t[:i+3+end])
			t = t[i+3+end:]
			continue
		}
		if len(calls) == maxShellCalls {
			return "", nil, fmt.Errorf("the command runs more than %d shell commands", maxShellCalls)
		}
		tok := token(nonce, len(calls))
		calls = append(calls, ShellCall{Token: tok, Command: cmd})
		b.WriteString(t[:i] + tok)
		t = t[i+3+end:]
	}
	return b.String(), calls, nil
}

// geminiFiles turns each @{path} into the mention @path (a space before it
// when it follows a word, so it is read as a mention).
func geminiFiles(t string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(t, "@{")
		if i < 0 {
			b.WriteString(t)
			return b.String(), nil
		}
		end := strings.IndexByte(t[i:], '}')
		if end < 0 {
			return "", fmt.Errorf("an @{ has no closing brace: %q", clip(t[i:]))
		}
		p := strings.TrimSpace(t[i+2 : i+end])
		if p == "" || strings.ContainsAny(p, " \t\n") {
			return "", fmt.Errorf("@{%s}: a file to attach must be one path without spaces", p)
		}
		b.WriteString(t[:i])
		if i > 0 && !strings.ContainsRune(" \t\n([{\"'", rune(t[i-1])) {
			b.WriteByte(' ')
		}
		b.WriteString("@" + p)
		t = t[i+end+1:]
	}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
