package customcmd

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Editor is what prompt-file variables can refer to.
type Editor struct {
	File      string // workspace-relative path of the active file
	Selection string
	Workspace string
}

var (
	positional = regexp.MustCompile(`\$([1-9])`)
	inputVar   = regexp.MustCompile(`\$\{input:([A-Za-z0-9_-]+)(?::([^}]*))?\}`)
)

// MissingInputs is returned when a prompt file needs ${input:x} values the
// arguments did not give; the UI asks for them, headless runs fail with
// the names.
type MissingInputs struct {
	Command string
	Names   []string
}

func (m *MissingInputs) Error() string {
	return fmt.Sprintf("/%s needs: %s (give them as name=value after the command)", m.Command, strings.Join(m.Names, ", "))
}

// Expand fills the command's template with args (the text after the
// command name). A template that does not mention its arguments gets them
// appended, so nothing the user typed is lost.
func (c Command) Expand(args string, ed Editor) (string, error) {
	t, _, err := c.expand(args, ed, "")
	return t, err
}

// expand is Expand; with a nonce it also marks the shell commands the
// template runs (inject.go).
func (c Command) expand(args string, ed Editor, nonce string) (string, []ShellCall, error) {
	args = strings.TrimSpace(args)
	t := c.Template
	used := false
	var calls []ShellCall
	switch c.Format {
	case FormatTOML:
		// Gemini CLI's order: files, then shell commands (whose {{args}}
		// are escaped), then the remaining {{args}}, raw.
		if nonce != "" {
			var err error
			if t, err = geminiFiles(t); err != nil {
				return "", nil, err
			}
			if t, calls, used, err = geminiShell(t, args, nonce); err != nil {
				return "", nil, err
			}
		}
		if strings.Contains(t, "{{args}}") {
			t, used = strings.ReplaceAll(t, "{{args}}", args), true
		}
	case FormatPrompt:
		var err error
		if t, used, err = c.expandPrompt(t, args, ed); err != nil {
			return "", nil, err
		}
	default:
		fields := splitArgs(args)
		if strings.Contains(t, "$ARGUMENTS") {
			t, used = strings.ReplaceAll(t, "$ARGUMENTS", args), true
		}
		if positional.MatchString(t) {
			used = true
			t = positional.ReplaceAllStringFunc(t, func(m string) string {
				i := int(m[1] - '1')
				if i < len(fields) {
					return fields[i]
				}
				return ""
			})
		}
		if nonce != "" {
			var err error
			if t, calls, err = claudeShell(t, nonce); err != nil {
				return "", nil, err
			}
		}
	}
	if !used && args != "" {
		t += "\n\n" + args
	}
	return t, calls, nil
}

func (c Command) expandPrompt(t, args string, ed Editor) (string, bool, error) {
	named := map[string]string{}
	var rest []string
	for _, f := range splitArgs(args) {
		if k, v, ok := strings.Cut(f, "="); ok && inputName(k) {
			named[k] = v
		} else {
			rest = append(rest, f)
		}
	}
	used := false
	var missing []string
	seen := map[string]bool{}
	t = inputVar.ReplaceAllStringFunc(t, func(m string) string {
		used = true
		name := inputVar.FindStringSubmatch(m)[1]
		if v, ok := named[name]; ok {
			return v
		}
		// Unnamed arguments fill inputs in order of first appearance.
		if !seen[name] && len(rest) > 0 {
			named[name], rest = rest[0], rest[1:]
			seen[name] = true
			return named[name]
		}
		if !seen[name] {
			seen[name] = true
			missing = append(missing, name)
		}
		return m
	})
	if len(missing) > 0 {
		sort.Strings(missing)
		return "", false, &MissingInputs{Command: c.Name, Names: missing}
	}
	r := strings.NewReplacer("${selection}", ed.Selection, "${selectedText}", ed.Selection, "${file}", ed.File, "${workspaceFolder}", ed.Workspace)
	t = r.Replace(t)
	if len(rest) > 0 && used {
		t += "\n\n" + strings.Join(rest, " ")
	}
	return t, used, nil
}

func inputName(s string) bool {
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// splitArgs splits like a shell does for quoting: "a b" and 'a b' are one
// argument; nothing is expanded.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	inArg := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, inArg = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inArg {
				out = append(out, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if inArg {
		out = append(out, cur.String())
	}
	return out
}
