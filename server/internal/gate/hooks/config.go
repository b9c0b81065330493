package hooks

import (
	"encoding/json"
	"errors"
	"github.com/govibe/govibe/server/internal/util/problem"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// Event names, as Claude Code spells them.
type Event string

const (
	PreToolUse         Event = "PreToolUse"
	PostToolUse        Event = "PostToolUse"
	PostToolUseFailure Event = "PostToolUseFailure"
	UserPromptSubmit   Event = "UserPromptSubmit"
	Stop               Event = "Stop"
	SubagentStop       Event = "SubagentStop"
	PreCompact         Event = "PreCompact"
	SessionStart       Event = "SessionStart"
	SessionEnd         Event = "SessionEnd"
	Notification       Event = "Notification"
)

// Events lists every event a hook can be configured for.
var Events = []Event{PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop, SubagentStop, PreCompact, SessionStart, SessionEnd, Notification}

// DefaultTimeout bounds one hook command (Claude Code's default);
// CopilotTimeout is Copilot's and VS Code's.
const (
	DefaultTimeout = 60 * time.Second
	CopilotTimeout = 30 * time.Second
	// MaxTimeout bounds what a configuration may set: every hook ends,
	// and with it the step of the turn that waits for it.
	MaxTimeout = 10 * time.Minute
)

// Format is whose payload a hook reads on stdin and whose reply it writes.
type Format string

const (
	// FormatClaude is Claude Code's (also VS Code's): snake_case fields.
	FormatClaude Format = "claude"
	// FormatCopilot is GitHub Copilot CLI's and cloud agent's (files with
	// "version": 1): camelCase fields, toolArgs as a JSON string.
	FormatCopilot Format = "copilot"
)

// Hook is one command for one event.
type Hook struct {
	Event Event
	// Matcher filters tool events by tool name (and SessionStart by
	// source, PreCompact by trigger…); "" or "*" matches all.
	Matcher string
	Command string
	Timeout time.Duration
	Source  string // where it was configured, for the UI and logs
	Format  Format
	// Dir is the working directory (a Copilot or VS Code hook's cwd,
	// relative to the workspace root); "" is the root.
	Dir string
	// Env is added to the hook's environment (Copilot's and VS Code's env).
	Env   map[string]string
	match func(string) bool
}

// Config is every hook that applies, in load order. Immutable; safe for
// concurrent use.
type Config struct {
	hooks []Hook
}

// Problem is a configuration that was skipped.
type Problem = problem.Problem

// Source is one place hooks come from.
type Source struct {
	Path    string
	Project bool // project sources load only when trusted
	// Key names the field holding the hooks when the file holds other
	// settings too (.claude/settings.json); "" accepts both shapes.
	Key string
}

// Sources lists where hooks load from: the user's ~/.govibe/hooks.json,
// ~/.claude/settings.json and ~/.copilot/hooks/*.json, then each root's
// .govibe/hooks.json, .github/hooks/*.json (Copilot's and VS Code's) and
// .claude/settings(.local).json.
func Sources(home string, roots []string) []Source {
	var out []Source
	if home != "" {
		out = append(out, Source{Path: filepath.Join(home, ".govibe", "hooks.json")},
			Source{Path: filepath.Join(home, ".claude", "settings.json"), Key: "hooks"})
		out = append(out, globSources(filepath.Join(home, ".copilot", "hooks"), false)...)
	}
	for _, r := range roots {
		out = append(out, Source{Path: filepath.Join(r, ".govibe", "hooks.json"), Project: true})
		out = append(out, globSources(filepath.Join(r, ".github", "hooks"), true)...)
		out = append(out, Source{Path: filepath.Join(r, ".claude", "settings.json"), Project: true, Key: "hooks"},
			Source{Path: filepath.Join(r, ".claude", "settings.local.json"), Project: true, Key: "hooks"})
	}
	return out
}

func globSources(dir string, project bool) []Source {
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(files)
	out := make([]Source, 0, len(files))
	for _, f := range files {
		out = append(out, Source{Path: f, Project: project})
	}
	return out
}

// Load reads the user's settings value (govibe.hooks, may be nil) and the
// sources. In an untrusted workspace project sources are skipped and
// reported in skipped, so the UI can say what trust would enable.
func Load(userSetting json.RawMessage, sources []Source, trusted bool) (c *Config, problems []Problem, skipped []string) {
	c = &Config{}
	if len(userSetting) > 0 && string(userSetting) != "null" {
		if err := c.add(userSetting, "settings: govibe.hooks"); err != nil {
			problems = append(problems, Problem{Path: "settings: govibe.hooks", Message: err.Error()})
		}
	}
	for _, s := range sources {
		data, err := safefile.ReadFile(s.Path, maxConfigFile)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, Problem{Path: s.Path, Message: err.Error()})
			}
			continue
		}
		if s.Project && !trusted {
			if s.Key == "" || strings.Contains(string(data), `"hooks"`) {
				skipped = append(skipped, s.Path)
			}
			continue
		}
		if err := c.add(data, s.Path); err != nil {
			problems = append(problems, Problem{Path: s.Path, Message: err.Error()})
		}
	}
	return c, problems, skipped
}

// matcher compiles a matcher as Claude Code evaluates it: "" or "*"
// matches everything; one made only of letters, digits, '_', '-', spaces,
// ',' and '|' is a list of exact names; anything else is a regular
// expression matched anywhere in the name (JavaScript's test()).
func matcher(m string) (func(string) bool, error) {
	m = strings.TrimSpace(m)
	if m == "" || m == "*" {
		return nil, nil
	}
	if exactMatcher.MatchString(m) {
		names := map[string]bool{}
		for _, n := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			if n = strings.TrimSpace(n); n != "" {
				names[n] = true
			}
		}
		return func(s string) bool { return names[s] }, nil
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}

var exactMatcher = regexp.MustCompile(`^[A-Za-z0-9_\- ,|]+$`)

// For returns the hooks for an event whose matcher matches one of names:
// for tool events the tool's names (Claude Code's or Copilot's, and
// GoVibe's), for SessionStart its source and so on. No names (an event
// with nothing to filter on) matches every hook of the event.
func (c *Config) For(ev Event, names ...string) []Hook {
	if c == nil {
		return nil
	}
	var out []Hook
	for _, h := range c.hooks {
		if h.Event != ev {
			continue
		}
		if h.match != nil && len(names) > 0 && !anyMatch(h.match, names) {
			continue
		}
		out = append(out, h)
	}
	return out
}

func anyMatch(match func(string) bool, names []string) bool {
	for _, n := range names {
		if n != "" && match(n) {
			return true
		}
	}
	return false
}

// Len is the number of configured hooks.
func (c *Config) Len() int {
	if c == nil {
		return 0
	}
	return len(c.hooks)
}

// maxConfigFile bounds the read of a hooks settings file: a FIFO or a device in its place is
// refused by kind, never waited on or read without end (issue 31).
const maxConfigFile = 4 << 20
