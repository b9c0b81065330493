package tools

import (
	"encoding/json"
	"sort"
)

// Def is what the model is told about one tool.
type Def struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"parameters"`
}

// Registry is an immutable name → Tool index, safe for concurrent use.
type Registry struct {
	byName map[string]Tool
	order  []string
}

// NewRegistry indexes tools; a later tool with the same name replaces an
// earlier one, which lets callers override a builtin.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{byName: map[string]Tool{}}
	for _, t := range ts {
		if _, dup := r.byName[t.Name()]; !dup {
			r.order = append(r.order, t.Name())
		}
		r.byName[t.Name()] = t
	}
	return r
}

// Get looks a tool up by name.
func (r *Registry) Get(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Names lists the tool names in registration order.
func (r *Registry) Names() []string { return append([]string(nil), r.order...) }

// Defs returns the model-visible definitions in registration order.
func (r *Registry) Defs() []Def {
	out := make([]Def, 0, len(r.order))
	for _, n := range r.order {
		t := r.byName[n]
		out = append(out, Def{Name: n, Description: DescribeAmong(t.Description(), func(name string) bool { _, ok := r.byName[name]; return ok }), Schema: t.Schema()})
	}
	return out
}

// Filter returns the tools named in allow (nil allow keeps all) that are
// read-only when readOnly is set. Unknown names in allow are ignored.
func (r *Registry) Filter(allow []string, readOnly bool) *Registry {
	var keep map[string]bool
	if allow != nil {
		keep = map[string]bool{}
		for _, n := range allow {
			keep[n] = true
		}
	}
	var ts []Tool
	for _, n := range r.order {
		t := r.byName[n]
		if keep != nil && !keep[n] {
			continue
		}
		if readOnly && !t.ReadOnly() {
			continue
		}
		ts = append(ts, t)
	}
	return NewRegistry(ts...)
}

// Builtin returns fresh instances of every built-in tool, read tools first.
func Builtin() []Tool {
	ts := []Tool{
		ReadFile(), FindInFile(), GrepSearch(), ListFiles(), Glob(),
		GetWorkspaceInfo(), GetFileInfo(), TextDiff(), GetDiagnostics(), WebFetch(),
		ListSkills(), LoadSkill(), ReadSkillFile(), ActivateSkill(), ValidateSpec(), AskHuman(), ShowNotification(),
		Edit(), WriteFile(), DeleteFile(), CreateDirectory(), RunShellCommand(),
	}
	return ts
}

// sortedKeys is a small helper for deterministic output.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
