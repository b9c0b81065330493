package agent

import (
	"fmt"
	"regexp"
	"strings"
)

// Tool profiles (govibe.models[].toolProfile): which tools a model
// profile is offered. Small local models choose better among fewer tools.
const (
	ToolProfileFull     = "full"
	ToolProfileReadonly = "readonly"
	ToolProfileNoShell  = "no-shell"
	// ToolProfileList is the kind of an explicit list of tool names.
	ToolProfileList = "list"
)

// shellTool is the one tool "no-shell" takes away.
const shellTool = "run_shell_command"

// readonlyExtras are tools a read-only profile keeps although they do not
// declare themselves read-only: compaction changes only the conversation.
var readonlyExtras = map[string]bool{"compact": true}

var toolNameRe = regexp.MustCompile(`^[A-Za-z0-9_.:-]+$`)

// ToolProfile restricts the tools offered. The zero value is full.
type ToolProfile struct {
	Kind  string
	Names []string // the explicit list, for ToolProfileList
}

// ParseToolProfile reads a toolProfile setting: "", "full", "readonly",
// "no-shell", or tool names separated by commas ("read_file, grep_search").
func ParseToolProfile(s string) (ToolProfile, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "", ToolProfileFull:
		return ToolProfile{Kind: ToolProfileFull}, nil
	case ToolProfileReadonly, ToolProfileNoShell:
		return ToolProfile{Kind: strings.ToLower(s)}, nil
	}
	p := ToolProfile{Kind: ToolProfileList}
	seen := map[string]bool{}
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		if !toolNameRe.MatchString(n) {
			return ToolProfile{Kind: ToolProfileFull}, fmt.Errorf("tool profile %q: %q is not a tool name; use full, readonly, no-shell or tool names separated by commas", s, n)
		}
		seen[n] = true
		p.Names = append(p.Names, n)
	}
	return p, nil
}

// Restricted says whether the profile offers less than every tool.
func (p ToolProfile) Restricted() bool { return p.Kind != "" && p.Kind != ToolProfileFull }

// String is the setting's canonical spelling.
func (p ToolProfile) String() string {
	if p.Kind == ToolProfileList {
		return strings.Join(p.Names, ",")
	}
	if p.Kind == "" {
		return ToolProfileFull
	}
	return p.Kind
}

// Allows says whether the profile offers the tool.
func (p ToolProfile) Allows(name string, readOnly bool) bool {
	switch p.Kind {
	case ToolProfileReadonly:
		return readOnly || readonlyExtras[name]
	case ToolProfileNoShell:
		return name != shellTool
	case ToolProfileList:
		for _, n := range p.Names {
			if n == name {
				return true
			}
		}
		return false
	}
	return true
}

// Unknown lists the explicit names that are not among available.
func (p ToolProfile) Unknown(available []string) []string {
	have := map[string]bool{}
	for _, n := range available {
		have[n] = true
	}
	var out []string
	for _, n := range p.Names {
		if !have[n] {
			out = append(out, n)
		}
	}
	return out
}
