package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"
)

// One hook file in any of the three shapes that share .github/hooks and
// the settings files:
//
//   - Claude Code: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks":
//     [{"type": "command", "command": "...", "timeout": 60}]}]}}; a file
//     may also hold the event map directly.
//   - GitHub Copilot: {"version": 1, "hooks": {"preToolUse": [{"type":
//     "command", "bash": "...", "powershell": "...", "cwd": ".", "env":
//     {...}, "timeoutSec": 30}]}}: camelCase events, commands without
//     matcher groups.
//   - VS Code: {"hooks": {"PreToolUse": [{"type": "command", "command":
//     "...", "windows": "...", "timeout": 30}]}}.
//
// A file's version field makes it Copilot's, whose hooks read Copilot's
// payload; the others read Claude Code's, which VS Code shares.

type fileShape struct {
	Version *int                         `json:"version"`
	Hooks   map[string][]json.RawMessage `json:"hooks"`
}

// entry is an event's list element: a matcher group (hooks set) or one
// command.
type entry struct {
	Type       string            `json:"type"`
	Matcher    string            `json:"matcher"`
	Hooks      []entry           `json:"hooks"`
	Command    string            `json:"command"`
	Bash       string            `json:"bash"`
	PowerShell string            `json:"powershell"`
	Linux      string            `json:"linux"`
	OSX        string            `json:"osx"`
	Windows    string            `json:"windows"`
	Cwd        string            `json:"cwd"`
	Env        map[string]string `json:"env"`
	Timeout    *float64          `json:"timeout"`    // seconds (Claude Code, VS Code)
	TimeoutSec *float64          `json:"timeoutSec"` // seconds (Copilot)
}

// eventAliases are the camelCase names Copilot (and VS Code, which
// converts them) use for GoVibe's events.
var eventAliases = map[string]Event{
	"preToolUse": PreToolUse, "postToolUse": PostToolUse, "postToolUseFailure": PostToolUseFailure,
	"userPromptSubmitted": UserPromptSubmit, "userPromptSubmit": UserPromptSubmit,
	"agentStop": Stop, "stop": Stop, "subagentStop": SubagentStop, "preCompact": PreCompact,
	"sessionStart": SessionStart, "sessionEnd": SessionEnd, "notification": Notification,
}

// unfired are events of Claude Code and Copilot that GoVibe never fires:
// hooks for them are reported once, not an error that hides the rest.
var unfired = map[string]bool{
	"PermissionRequest": true, "permissionRequest": true, "PermissionDenied": true, "SubagentStart": true,
	"PostToolBatch": true, "Setup": true, "InstructionsLoaded": true, "UserPromptExpansion": true,
	"MessageDisplay": true, "TaskCreated": true, "TaskCompleted": true, "TeammateIdle": true,
	"StopFailure": true, "ConfigChange": true, "CwdChanged": true, "DirectoryAdded": true,
	"FileChanged": true, "WorktreeCreate": true, "WorktreeRemove": true, "PostCompact": true,
	"Elicitation": true, "ElicitationResult": true, "errorOccurred": true, "subagentStart": true,
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
	format, defTimeout := FormatClaude, DefaultTimeout
	if f.Version != nil {
		if *f.Version != 1 {
			return fmt.Errorf("hooks file version %d is not supported (Copilot's format is version 1)", *f.Version)
		}
		format, defTimeout = FormatCopilot, CopilotTimeout
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
		if a, ok := eventAliases[name]; ok {
			ev = a
		}
		if !known[ev] {
			if unfired[name] {
				errs = append(errs, fmt.Sprintf("GoVibe does not fire %s, so its hooks never run", name))
			} else {
				errs = append(errs, fmt.Sprintf("unknown hook event %q (known: %s)", name, eventList()))
			}
			continue
		}
		for _, raw := range groups[name] {
			var e entry
			if err := json.Unmarshal(raw, &e); err != nil {
				errs = append(errs, fmt.Sprintf("%s: invalid entry: %v", name, err))
				continue
			}
			list, groupMatcher := []entry{e}, e.Matcher
			if len(e.Hooks) > 0 {
				list = e.Hooks
			}
			for _, h := range list {
				m := firstNonEmpty(h.Matcher, groupMatcher)
				hook, err := newHook(ev, m, h, format, defTimeout, source)
				if err != nil {
					errs = append(errs, fmt.Sprintf("%s: %v", name, err))
					if !errors.As(err, new(cappedTimeout)) {
						continue
					}
				}
				c.hooks = append(c.hooks, hook)
			}
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

func newHook(ev Event, m string, h entry, format Format, defTimeout time.Duration, source string) (Hook, error) {
	match, err := matcher(m)
	if err != nil {
		return Hook{}, fmt.Errorf("invalid matcher %q: %v", m, err)
	}
	if h.Type != "" && h.Type != "command" {
		return Hook{}, fmt.Errorf("hook type %q is not supported (only \"command\")", h.Type)
	}
	cmd := h.command()
	if strings.TrimSpace(cmd) == "" {
		if h.Bash != "" || h.PowerShell != "" || h.Windows != "" || h.Linux != "" || h.OSX != "" {
			return Hook{}, fmt.Errorf("a hook has no command for this system (%s)", runtime.GOOS)
		}
		return Hook{}, errors.New("a hook has no command")
	}
	secs := h.Timeout
	if secs == nil {
		secs = h.TimeoutSec
	}
	t := defTimeout
	if secs != nil {
		if *secs < 0 {
			// A typo must not turn into the default silently.
			return Hook{}, fmt.Errorf("timeout %v is negative (seconds; leave it out for %s)", *secs, defTimeout)
		}
		if *secs > MaxTimeout.Seconds() {
			// Shortened, and said: dropping the hook instead would
			// silently lift a guard (a PreToolUse validator) that the
			// user counts on. (Multiplying first would also overflow
			// time.Duration.)
			return Hook{Event: ev, Matcher: m, Command: cmd, Timeout: MaxTimeout, Source: source, Format: format,
				Dir: h.Cwd, Env: h.Env, match: match}, cappedTimeout{secs: *secs}
		}
		if *secs > 0 {
			t = time.Duration(*secs * float64(time.Second))
		}
	}
	return Hook{Event: ev, Matcher: m, Command: cmd, Timeout: t, Source: source, Format: format,
		Dir: h.Cwd, Env: h.Env, match: match}, nil
}

// cappedTimeout is newHook's report that the hook loads, but with its
// timeout cut to MaxTimeout.
type cappedTimeout struct{ secs float64 }

func (c cappedTimeout) Error() string {
	return fmt.Sprintf("timeout %v is above the maximum of %v seconds: the hook runs with %v seconds, as a hook must not hold a turn longer", c.secs, MaxTimeout.Seconds(), MaxTimeout.Seconds())
}

// command is the command line for this system: Copilot's bash or
// powershell, VS Code's per-OS override, else command.
func (h entry) command() string {
	if runtime.GOOS == "windows" {
		return firstNonEmpty(h.Windows, h.PowerShell, h.Command)
	}
	osCmd := h.Linux
	if runtime.GOOS == "darwin" {
		osCmd = h.OSX
	}
	return firstNonEmpty(osCmd, h.Bash, h.Command)
}

func eventList() string {
	var s []string
	for _, e := range Events {
		s = append(s, string(e))
	}
	return strings.Join(s, ", ")
}
