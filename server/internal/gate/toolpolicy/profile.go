package toolpolicy

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Tool profiles (govibe.models[].toolProfile): which tools a model
// profile is offered. Small local models choose better among fewer tools.
const (
	ProfileFull     = "full"
	ProfileReadonly = "readonly"
	ProfileNoShell  = "no-shell"
	// ProfileList is the kind of an explicit list of tool names.
	ProfileList = "list"
)

var toolNameRe = regexp.MustCompile(`^[A-Za-z0-9_.:-]+$`)

// Profile restricts the tools offered. The zero value is full.
type Profile struct {
	Kind  string
	Names []string // the explicit list, for ProfileList
}

// ParseProfile reads a toolProfile setting: "", "full", "readonly",
// "no-shell", or tool names separated by commas ("read_file, grep_search").
func ParseProfile(s string) (Profile, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "", ProfileFull:
		return Profile{Kind: ProfileFull}, nil
	case ProfileReadonly, ProfileNoShell:
		return Profile{Kind: strings.ToLower(s)}, nil
	}
	p := Profile{Kind: ProfileList}
	seen := map[string]bool{}
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		if !toolNameRe.MatchString(n) {
			return Profile{Kind: ProfileFull}, fmt.Errorf("tool profile %q: %q is not a tool name; use full, readonly, no-shell or tool names separated by commas", s, n)
		}
		seen[n] = true
		p.Names = append(p.Names, n)
	}
	return p, nil
}

// Restricted says whether the profile offers less than every tool.
func (p Profile) Restricted() bool { return p.Kind != "" && p.Kind != ProfileFull }

// String is the setting's canonical spelling.
func (p Profile) String() string {
	if p.Kind == ProfileList {
		return strings.Join(p.Names, ",")
	}
	if p.Kind == "" {
		return ProfileFull
	}
	return p.Kind
}

// Allows says whether the profile offers a tool: readonly keeps what
// changes nothing, and compaction, which changes only the conversation;
// no-shell takes away what runs commands; a list keeps what it names.
func (p Profile) Allows(name string, t tools.Traits) bool {
	switch p.Kind {
	case ProfileReadonly:
		return t.ChangesNothing() || t.Within(tools.Meta)
	case ProfileNoShell:
		return !t.Has(tools.RunsCommands)
	case ProfileList:
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
func (p Profile) Unknown(available []string) []string {
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
