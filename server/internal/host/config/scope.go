package config

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/govibe/govibe/server/internal/host/i18n"
)

// Warning is a message about settings for a person: an ignored key, a
// renamed one. Format is the English i18n key.
type Warning struct {
	Key    string
	Format string
	Args   []any
	// Untrusted marks the warning that an untrusted workspace's settings
	// were ignored: trusting the workspace is its remedy.
	Untrusted bool
}

// In renders w in lang.
func (w Warning) In(lang i18n.Lang) string { return i18n.T(lang, w.Format, w.Args...) }

func (w Warning) String() string { return w.In(i18n.English) }

// tr builds a warning about key, the message's first argument; the i18n
// catalogue test finds its literal message.
func tr(format, key string, rest ...any) Warning {
	return Warning{Key: key, Format: format, Args: append([]any{key}, rest...)}
}

// Normalize moves renamed keys to their new names, converting their
// values. A value under the new name wins over the old one.
func Normalize(v Values) (Values, []Warning) {
	var warns []Warning
	for _, l := range Legacies {
		old, ok := v[l.Old]
		if !ok {
			continue
		}
		out := v.Merge(nil)
		delete(out, l.Old)
		conv := l.Convert(old)
		if _, set := v[l.New]; !set {
			out[l.New] = conv
		}
		v = out
		warns = append(warns, tr("setting %q is now %q: %v read as %v ms (%s)", l.Old, l.New, old, conv, l.EN))
	}
	return v, warns
}

// UnknownIn warns about each key of v that is no setting; where names the
// origin ("--set", a file). Unknown keys are kept but nothing reads them,
// so "ignored" is the truth.
func UnknownIn(v Values, where string) []Warning {
	var out []Warning
	for _, k := range UnknownKeys(v) {
		out = append(out, tr("unknown setting %q in %s (ignored by GoVibe)", k, where))
	}
	return out
}

// ApplyWorkspace lays a workspace's values over the user's as the schema
// allows: Workspace keys replace, Restrict keys only tighten (booleans to
// their Stricter value; limits to the lower of the two; rule lists become
// workspace rules), UserOnly keys
// and anything from an untrusted workspace are dropped. Each dropped key
// gets a warning naming it.
func ApplyWorkspace(user, ws Values, trusted bool) (Values, []Warning) {
	out := user.Merge(nil)
	if len(ws) == 0 {
		return out, nil
	}
	keys := make([]string, 0, len(ws))
	for k := range ws {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if !trusted {
		w := tr("this workspace is not trusted: its GoVibe settings are ignored (%s)", strings.Join(keys, ", "))
		w.Untrusted = true
		return out, []Warning{w}
	}
	ws, warns := Normalize(ws)
	warns = append(warns, UnknownIn(ws, "the workspace settings")...)
	keys = keys[:0]
	for k := range ws {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x := ws[k]
		s := Lookup(k)
		switch {
		case s == nil:
		case s.Scope == Workspace:
			out[k] = x
		case s.Scope == Restrict && s.WorkspaceKey != "":
			rules := append(out.Strings(s.WorkspaceKey), (Values{k: x}).Strings(k)...)
			list := make([]any, len(rules))
			for i, r := range rules {
				list[i] = r
			}
			out[s.WorkspaceKey] = list
		case s.Scope == Restrict && s.Lower:
			if v, ok := lowerLimit(out[k], x); ok {
				out[k] = v
			} else {
				warns = append(warns, tr("workspace setting %q=%v ignored: a workspace may lower your limit of %v, never raise or remove it", k, x, out[k]))
			}
		case s.Scope == Restrict && sameValue(x, s.Stricter):
			out[k] = x
		case s.Scope == Restrict:
			warns = append(warns, tr("workspace setting %q=%v ignored: a workspace may make GoVibe stricter, never more permissive", k, x))
		default:
			warns = append(warns, tr("workspace setting %q ignored: only your user settings may set it", k))
		}
	}
	return out, warns
}

// lowerLimit resolves a limit (0 or unset: none) set by the user and by
// the workspace: the lower of the two when both are set, the workspace's
// when the user set none. ok is false when the workspace's would raise or
// remove the user's limit (or is no number): the user's stands.
func lowerLimit(user, ws any) (any, bool) {
	w, isNum := ws.(float64)
	if !isNum || w < 0 {
		return nil, false
	}
	u, _ := user.(float64)
	switch {
	case u <= 0:
		return w, true
	case w > 0 && w <= u:
		return w, true
	}
	return nil, false
}

// sameValue compares JSON values, reading "true"/"false" strings as bools.
func sameValue(a, b any) bool {
	if bb, ok := b.(bool); ok {
		if s, ok := a.(string); ok {
			return (s == "true") == bb && (s == "true" || s == "false")
		}
	}
	return reflect.DeepEqual(a, b)
}

// Validate checks a value against its declaration: type, enum, range. An
// unknown key is not an error here (UnknownIn warns about it).
func Validate(key string, v any) error {
	s := Lookup(key)
	if s == nil {
		return nil
	}
	bad := func(want string) error {
		b, _ := json.Marshal(v)
		return fmt.Errorf("setting %s: %s is not %s", key, b, want)
	}
	switch s.Type {
	case "boolean":
		if _, ok := v.(bool); !ok {
			return bad("true or false")
		}
	case "string":
		x, ok := v.(string)
		if !ok {
			return bad("a string")
		}
		if len(s.Enum) > 0 && !contains(s.Enum, x) {
			return bad("one of " + strings.Join(s.Enum, ", "))
		}
	case "integer", "number":
		f, ok := v.(float64)
		if !ok {
			return bad("a number")
		}
		if s.Type == "integer" && f != float64(int64(f)) {
			return bad("a whole number")
		}
		if s.Min != nil && f < *s.Min {
			return bad(fmt.Sprintf("at least %v", *s.Min))
		}
		if s.Max != nil && f > *s.Max {
			return bad(fmt.Sprintf("at most %v", *s.Max))
		}
	case "object":
		if _, ok := v.(map[string]any); !ok {
			return bad("a JSON object")
		}
	case "array":
		list, ok := v.([]any)
		if !ok {
			return bad("a JSON array")
		}
		for _, e := range list {
			if _, isStr := e.(string); s.Items == "string" && !isStr {
				return bad("a list of strings")
			}
			if _, isObj := e.(map[string]any); s.Items == "model" && !isObj {
				return bad("a list of profile objects")
			}
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
