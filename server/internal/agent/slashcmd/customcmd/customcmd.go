// Package customcmd loads the slash commands users write as files, in the
// formats they already have: GoVibe and Claude Code Markdown commands
// ($ARGUMENTS, $1…), Gemini CLI TOML commands ({{args}}) and VS Code
// prompt files (${input:x}, ${selection}, ${file}). Subfolders namespace
// commands (git/commit.md is /git:commit). Project commands load only in a
// trusted workspace; a project command beats a user one of the same name,
// and the loser is reported. Shell commands a file runs as it expands
// (!`cmd`, !{cmd}) and files it attaches (@path, @{path}) are marked by
// ExpandShell (inject.go) for the engine to run through its approval.
package customcmd

import (
	"errors"
	"fmt"
	"github.com/govibe/govibe/server/internal/util/problem"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"

	"github.com/govibe/govibe/server/internal/util/frontmatter"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// Format is the file format of a command.
type Format string

const (
	FormatMarkdown Format = "md"     // .govibe/commands, .claude/commands
	FormatTOML     Format = "toml"   // Gemini CLI
	FormatPrompt   Format = "prompt" // .github/prompts/*.prompt.md
)

// Command is one loaded command. Immutable.
type Command struct {
	Name         string // without the leading '/', namespaced with ':'
	Description  string
	ArgumentHint string
	Model        string
	AllowedTools []string
	Template     string
	Format       Format
	Source       string // project|user
	Path         string
}

// Problem is a file that was skipped, with where and why.
type Problem = problem.Problem

// Dir is one folder of command files.
type Dir struct {
	Path   string
	Source string
	// Format is what the folder's tool reads as a command: FormatPrompt
	// *.prompt.md (VS Code), FormatTOML only .toml (Gemini CLI, whose
	// commands may include Markdown files that are not commands),
	// FormatMarkdown only .md (Claude Code); "" (GoVibe's) both .md and
	// .toml.
	Format Format
}

// Dirs lists the folders, highest precedence first: the workspace's
// (trusted only), then the user's.
func Dirs(home string, roots []string, trusted bool) []Dir {
	var out []Dir
	if trusted {
		for _, r := range roots {
			out = append(out,
				Dir{Path: filepath.Join(r, ".govibe", "commands"), Source: "project"},
				Dir{Path: filepath.Join(r, ".claude", "commands"), Source: "project", Format: FormatMarkdown},
				Dir{Path: filepath.Join(r, ".gemini", "commands"), Source: "project", Format: FormatTOML},
				Dir{Path: filepath.Join(r, ".github", "prompts"), Source: "project", Format: FormatPrompt},
			)
		}
	}
	if home != "" {
		out = append(out,
			Dir{Path: filepath.Join(home, ".govibe", "commands"), Source: "user"},
			Dir{Path: filepath.Join(home, ".claude", "commands"), Source: "user", Format: FormatMarkdown},
			Dir{Path: filepath.Join(home, ".gemini", "commands"), Source: "user", Format: FormatTOML},
		)
	}
	return out
}

const (
	maxCommands = 500
	maxFileSize = 64 << 10
)

var nameRE = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]*(:[a-zA-Z0-9][a-zA-Z0-9._-]*)*$`)

// Load reads every dir; the first command of a name wins. reserved says
// whether a name belongs to a built-in command: a file shadowing one is
// loaded under its name anyway (a user may override /review, say) but is
// reported, so the conflict is visible.
func Load(dirs []Dir, reserved func(string) bool) (cmds []Command, problems, conflicts []Problem) {
	byName := map[string]Command{}
	for _, d := range dirs {
		root, err := filepath.EvalSymlinks(d.Path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, Problem{Path: d.Path, Message: err.Error()})
			}
			continue
		}
		_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if e.IsDir() {
				if p != root && strings.HasPrefix(e.Name(), ".") {
					return fs.SkipDir
				}
				return nil
			}
			if strings.HasPrefix(e.Name(), ".") {
				return nil // hidden files and editors' lock files
			}
			name, format, ok := commandName(root, p, d.Format)
			if !ok {
				return nil
			}
			if !nameRE.MatchString(name) {
				// A command file the user cannot type is reported, not
				// silently skipped.
				problems = append(problems, Problem{Path: p, Message: fmt.Sprintf("/%s is not a command name: use letters, digits, '.', '_' and '-' (subfolders become ':')", name)})
				return nil
			}
			if len(byName) >= maxCommands {
				return fs.SkipAll
			}
			c, prob := parseFile(p, format)
			if prob != nil {
				problems = append(problems, *prob)
				return nil
			}
			c.Name, c.Source = name, d.Source
			if prev, dup := byName[name]; dup {
				conflicts = append(conflicts, Problem{Path: p, Message: fmt.Sprintf("/%s is already defined by the %s command %s, which wins", name, prev.Source, prev.Path)})
				return nil
			}
			if reserved != nil && reserved(name) {
				conflicts = append(conflicts, Problem{Path: p, Message: fmt.Sprintf("/%s replaces the built-in command of that name", name)})
			}
			byName[name] = c
			return nil
		})
	}
	for _, c := range byName {
		cmds = append(cmds, c)
	}
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	return cmds, problems, conflicts
}

// commandName maps a file to its command name: the path below the folder
// with separators turned into ':' and the extension dropped. ok is false
// for a file that is no command (another extension); the name may still
// be invalid (nameRE).
func commandName(root, p string, f Format) (string, Format, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return "", "", false
	}
	rel = filepath.ToSlash(rel)
	var format Format
	switch {
	case f == FormatPrompt:
		if !strings.HasSuffix(rel, ".prompt.md") {
			return "", "", false
		}
		rel, format = strings.TrimSuffix(rel, ".prompt.md"), FormatPrompt
	case strings.HasSuffix(rel, ".md") && f != FormatTOML:
		rel, format = strings.TrimSuffix(rel, ".md"), FormatMarkdown
	case strings.HasSuffix(rel, ".toml") && f != FormatMarkdown:
		rel, format = strings.TrimSuffix(rel, ".toml"), FormatTOML
	default:
		return "", "", false
	}
	return strings.ReplaceAll(rel, "/", ":"), format, true
}

type tomlFields struct {
	Description string `toml:"description"`
	Prompt      string `toml:"prompt"`
}

func parseFile(p string, f Format) (Command, *Problem) {
	data, err := safefile.ReadFile(p, maxCommandFile)
	if err != nil {
		return Command{}, &Problem{Path: p, Message: err.Error()}
	}
	if len(data) > maxFileSize {
		return Command{}, &Problem{Path: p, Message: fmt.Sprintf("the file is %d KB; the limit is %d KB", len(data)>>10, maxFileSize>>10)}
	}
	c := Command{Format: f, Path: p}
	if f == FormatTOML {
		var tf tomlFields
		md, err := toml.Decode(string(data), &tf)
		if err != nil {
			var pe toml.ParseError
			if errors.As(err, &pe) {
				return c, &Problem{Path: p, Line: pe.Position.Line, Message: "invalid TOML: " + pe.Message}
			}
			return c, &Problem{Path: p, Message: "invalid TOML: " + err.Error()}
		}
		_ = md
		if strings.TrimSpace(tf.Prompt) == "" {
			return c, &Problem{Path: p, Message: "prompt is required"}
		}
		c.Description, c.Template = strings.TrimSpace(tf.Description), tf.Prompt
		return c, nil
	}
	doc, err := frontmatter.Split(data, false)
	// The header is read as a map, as the tools these files come from
	// read it: a key GoVibe does not use (context, agent, hooks,
	// disable-model-invocation…) or a value of another shape never drops
	// the command.
	var fm map[string]yaml.Node
	if err == nil {
		err = doc.DecodeAsWritten(&fm)
	}
	if err != nil {
		var fe *frontmatter.Error
		if errors.As(err, &fe) {
			return c, &Problem{Path: p, Line: fe.Line, Message: fe.Message}
		}
		return c, &Problem{Path: p, Message: err.Error()}
	}
	c.Template = strings.TrimSpace(doc.Body)
	if c.Template == "" {
		return c, &Problem{Path: p, Line: doc.BodyLine, Message: "the command's prompt (the body) is empty"}
	}
	field := func(keys ...string) *yaml.Node {
		for _, k := range keys {
			if n, ok := fm[k]; ok {
				return &n
			}
		}
		return nil
	}
	c.Description = strings.Join(strings.Fields(nodeText(field("description"))), " ")
	c.ArgumentHint = strings.TrimSpace(nodeText(field("argument-hint", "argumentHint")))
	c.Model = strings.TrimSpace(nodeText(field("model")))
	for _, k := range []string{"allowedTools", "allowed-tools", "tools"} {
		if ts := list(field(k)); len(ts) > 0 {
			c.AllowedTools = ts
			break
		}
	}
	if c.Description == "" {
		c.Description = firstLine(c.Template)
	}
	return c, nil
}

// nodeText is a header value as text: a scalar's value, or another
// shape as it is written (`argument-hint: [message]` is a YAML list, but
// its author meant the text "[message]").
func nodeText(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	out, err := yaml.Marshal(n)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// list is a tool list: a YAML list, or one string of comma-separated
// names as Claude Code writes it (`Bash(git add:*), Bash(git status:*)`).
func list(n *yaml.Node) []string {
	var out []string
	switch {
	case n == nil:
	case n.Kind == yaml.ScalarNode:
		for _, s := range splitTools(n.Value) {
			out = append(out, s)
		}
	case n.Kind == yaml.SequenceNode:
		for _, e := range n.Content {
			if e.Kind == yaml.ScalarNode && strings.TrimSpace(e.Value) != "" {
				out = append(out, strings.TrimSpace(e.Value))
			}
		}
	}
	return out
}

// splitTools splits at commas outside parentheses, so a pattern such as
// Bash(npm run test:*, --watch) stays whole.
func splitTools(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				if t := strings.TrimSpace(s[start:i]); t != "" {
					out = append(out, t)
				}
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

func firstLine(s string) string {
	s = strings.TrimSpace(strings.SplitN(s, "\n", 2)[0])
	s = strings.TrimLeft(s, "# ")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// maxCommandFile bounds the read of a custom command file: a FIFO or a device in its place is
// refused by kind, never waited on or read without end (issue 31).
const maxCommandFile = 4 << 20
