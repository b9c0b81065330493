// Package hooks runs the user's lifecycle hooks: commands configured, in
// Claude Code's format, for events such as PreToolUse or Stop. A hook gets
// the event as JSON on stdin. Exit 0 continues (stdout may be a JSON reply
// that adds context or changes a tool's input), exit 2 blocks with stderr
// as the reason the model reads, and anything else is a logged failure
// that never blocks. Project hooks load only in a trusted workspace.
package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/safefile"
)

// Event names, as Claude Code spells them.
type Event string

const (
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	UserPromptSubmit Event = "UserPromptSubmit"
	Stop             Event = "Stop"
	SubagentStop     Event = "SubagentStop"
	PreCompact       Event = "PreCompact"
	SessionStart     Event = "SessionStart"
	SessionEnd       Event = "SessionEnd"
	Notification     Event = "Notification"
)

// Events lists every event a hook can be configured for.
var Events = []Event{PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStop, PreCompact, SessionStart, SessionEnd, Notification}

// DefaultTimeout bounds one hook command.
const DefaultTimeout = 60 * time.Second

// Hook is one command for one event.
type Hook struct {
	Event   Event
	Matcher string // tool-name regexp for Pre/PostToolUse; "" or "*" matches all
	Command string
	Timeout time.Duration
	Source  string // where it was configured, for the UI and logs
	re      *regexp.Regexp
}

// Config is every hook that applies, in load order. Immutable; safe for
// concurrent use.
type Config struct {
	hooks []Hook
}

// Problem is a configuration that was skipped.
type Problem struct {
	Source  string
	Message string
}

func (p Problem) Error() string { return p.Source + ": " + p.Message }

// fileShape is Claude Code's settings shape: {"hooks": {Event: [{matcher,
// hooks: [{type: "command", command, timeout}]}]}}. A file may also hold
// the map directly.
type fileShape struct {
	Hooks map[string][]matcherGroup `json:"hooks"`
}

type matcherGroup struct {
	Matcher string        `json:"matcher"`
	Hooks   []commandHook `json:"hooks"`
}

type commandHook struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout"` // seconds, as Claude Code has it
}

// Source is one place hooks come from.
type Source struct {
	Path    string
	Project bool // project sources load only when trusted
	// Key names the field holding the hooks when the file holds other
	// settings too (.claude/settings.json); "" accepts both shapes.
	Key string
}

// Sources lists where hooks load from: the user's ~/.govibe/hooks.json and
// ~/.claude/settings.json, then each root's .govibe/hooks.json,
// .github/hooks/*.json and .claude/settings.json.
func Sources(home string, roots []string) []Source {
	var out []Source
	if home != "" {
		out = append(out, Source{Path: filepath.Join(home, ".govibe", "hooks.json")},
			Source{Path: filepath.Join(home, ".claude", "settings.json"), Key: "hooks"})
	}
	for _, r := range roots {
		out = append(out, Source{Path: filepath.Join(r, ".govibe", "hooks.json"), Project: true})
		gh, _ := filepath.Glob(filepath.Join(r, ".github", "hooks", "*.json"))
		sort.Strings(gh)
		for _, g := range gh {
			out = append(out, Source{Path: g, Project: true})
		}
		out = append(out, Source{Path: filepath.Join(r, ".claude", "settings.json"), Project: true, Key: "hooks"},
			Source{Path: filepath.Join(r, ".claude", "settings.local.json"), Project: true, Key: "hooks"})
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
			problems = append(problems, Problem{Source: "settings: govibe.hooks", Message: err.Error()})
		}
	}
	for _, s := range sources {
		data, err := safefile.ReadFile(s.Path, maxConfigFile)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, Problem{Source: s.Path, Message: err.Error()})
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
			problems = append(problems, Problem{Source: s.Path, Message: err.Error()})
		}
	}
	return c, problems, skipped
}

func (c *Config) add(data []byte, source string) error {
	var f fileShape
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("invalid JSON: %v", err)
	}
	groups := f.Hooks
	if groups == nil {
		// {"PreToolUse": [...]} directly.
		if err := json.Unmarshal(data, &groups); err != nil {
			return nil // a settings file without hooks
		}
	}
	known := map[Event]bool{}
	for _, e := range Events {
		known[e] = true
	}
	names := make([]string, 0, len(groups))
	for k := range groups {
		names = append(names, k)
	}
	sort.Strings(names)
	var errs []string
	for _, name := range names {
		ev := Event(name)
		if !known[ev] {
			errs = append(errs, fmt.Sprintf("unknown hook event %q (known: %s)", name, eventList()))
			continue
		}
		for _, g := range groups[name] {
			re, err := matcher(g.Matcher)
			if err != nil {
				errs = append(errs, fmt.Sprintf("%s: invalid matcher %q: %v", name, g.Matcher, err))
				continue
			}
			for _, h := range g.Hooks {
				if h.Type != "" && h.Type != "command" {
					errs = append(errs, fmt.Sprintf("%s: hook type %q is not supported (only \"command\")", name, h.Type))
					continue
				}
				if strings.TrimSpace(h.Command) == "" {
					errs = append(errs, fmt.Sprintf("%s: a hook has no command", name))
					continue
				}
				if h.Timeout < 0 {
					// A typo must not turn into the 60 s default silently.
					errs = append(errs, fmt.Sprintf("%s: timeout %v is negative (seconds; leave it out for %s)", name, h.Timeout, DefaultTimeout))
					continue
				}
				t := DefaultTimeout
				if h.Timeout > 0 {
					t = time.Duration(h.Timeout * float64(time.Second))
				}
				c.hooks = append(c.hooks, Hook{Event: ev, Matcher: g.Matcher, Command: h.Command, Timeout: t, Source: source, re: re})
			}
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

func eventList() string {
	var s []string
	for _, e := range Events {
		s = append(s, string(e))
	}
	return strings.Join(s, ", ")
}

func matcher(m string) (*regexp.Regexp, error) {
	if m == "" || m == "*" {
		return nil, nil
	}
	return regexp.Compile("^(?:" + m + ")$")
}

// aliases are Claude Code's tool names for GoVibe's, so matchers written
// for Claude Code ("Bash", "Edit|Write") work unchanged.
var aliases = map[string]string{
	"run_shell_command": "Bash", "edit": "Edit", "write_file": "Write", "read_file": "Read",
	"grep_search": "Grep", "glob": "Glob", "list_files": "LS", "web_fetch": "WebFetch",
	"delete_file": "Delete", "create_todo_list": "TodoWrite",
}

// For returns the hooks for an event; for tool events only those whose
// matcher matches the tool (by GoVibe name or Claude Code alias).
func (c *Config) For(ev Event, tool string) []Hook {
	if c == nil {
		return nil
	}
	var out []Hook
	for _, h := range c.hooks {
		if h.Event != ev {
			continue
		}
		if h.re != nil && tool != "" && !h.re.MatchString(tool) && !h.re.MatchString(aliases[tool]) {
			continue
		}
		out = append(out, h)
	}
	return out
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
