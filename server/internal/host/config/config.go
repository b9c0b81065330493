package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Values is a flat map of setting keys ("compact.threshold") to JSON values.
// Nested objects from VS Code ({"compact": {"threshold": 0.7}}) are
// flattened on the way in so both spellings work.
type Values map[string]any

// Defaults for every known key, from Schema. A key not listed here is
// unknown: --set warns about it.
var Defaults = func() Values {
	v := make(Values, len(Schema))
	for _, s := range Schema {
		v[s.Key] = s.Default
	}
	return v
}()

// Flatten turns nested objects into dotted keys and drops a "govibe."
// prefix.
func Flatten(in map[string]any) Values {
	out := Values{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			key := strings.TrimPrefix(prefix+k, "govibe.")
			if sub, ok := v.(map[string]any); ok {
				walk(key+".", sub)
				continue
			}
			out[key] = v
		}
	}
	walk("", in)
	return out
}

// Merge returns a copy of v with o's keys laid over it.
func (v Values) Merge(o Values) Values {
	out := Values{}
	for k, x := range v {
		out[k] = x
	}
	for k, x := range o {
		out[k] = x
	}
	return out
}

func (v Values) lookup(key string) any {
	if x, ok := v[key]; ok && x != nil {
		return x
	}
	return Defaults[key]
}

// String returns a string setting.
func (v Values) String(key string) string {
	switch x := v.lookup(key).(type) {
	case string:
		return x
	case nil:
		return ""
	default:
		return fmt.Sprint(x)
	}
}

// Bool returns a boolean setting; strings "true"/"1" count.
func (v Values) Bool(key string) bool {
	switch x := v.lookup(key).(type) {
	case bool:
		return x
	case string:
		b, _ := strconv.ParseBool(x)
		return b
	case float64:
		return x != 0
	}
	return false
}

// Float returns a number setting.
func (v Values) Float(key string) float64 {
	switch x := v.lookup(key).(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case string:
		f, _ := strconv.ParseFloat(x, 64)
		return f
	}
	return 0
}

// Int returns an integer setting.
func (v Values) Int(key string) int { return int(v.Float(key)) }

// Strings returns a string-list setting.
func (v Values) Strings(key string) []string {
	switch x := v.lookup(key).(type) {
	case []string:
		return x
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Known reports whether key is a recognised setting (a legacy name counts:
// it is converted, not ignored).
func Known(key string) bool {
	if Lookup(key) != nil {
		return true
	}
	for _, l := range Legacies {
		if l.Old == key {
			return true
		}
	}
	return false
}

// ParseAssignment parses a --set KEY=VALUE flag. VALUE is JSON when it
// parses as JSON (numbers, booleans, arrays), else a plain string.
func ParseAssignment(s string) (string, any, error) {
	k, val, ok := strings.Cut(s, "=")
	k = strings.TrimPrefix(strings.TrimSpace(k), "govibe.")
	if !ok || k == "" {
		return "", nil, fmt.Errorf("--set %q: want KEY=VALUE", s)
	}
	var v any
	if err := json.Unmarshal([]byte(val), &v); err != nil {
		v = val
	}
	return k, v, nil
}

// UserFile is the headless user settings file.
func UserFile() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "govibe", "settings.json")
}

// LoadFile reads a settings file; a missing file is empty, a malformed one
// is an error naming the file.
func LoadFile(path string) (Values, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return Values{}, nil
	}
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: invalid JSON: %v", path, err)
	}
	return Flatten(m), nil
}

// FromEnv reads GOVIBE_BASE_URL, GOVIBE_MODEL (the key is read separately
// so it never lands in a Values map that might be logged).
func FromEnv() Values {
	v := Values{}
	if s := os.Getenv("GOVIBE_BASE_URL"); s != "" {
		v["apiBaseUrl"] = s
	}
	if s := os.Getenv("GOVIBE_MODEL"); s != "" {
		v["model"] = s
	}
	return v
}

// UnknownKeys lists keys of v that are not known settings, sorted.
func UnknownKeys(v Values) []string {
	var out []string
	for k := range v {
		if !Known(k) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Object returns an object setting (govibe.hooks); nil when unset.
func (v Values) Object(key string) map[string]any {
	m, _ := v.lookup(key).(map[string]any)
	return m
}

// Objects returns a list-of-objects setting (govibe.models).
func (v Values) Objects(key string) []map[string]any {
	list, _ := v.lookup(key).([]any)
	var out []map[string]any
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}
