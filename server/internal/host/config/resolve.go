package config

import (
	"fmt"
	"sort"
)

// Layer is one origin of settings, lowest precedence first when resolving.
type Layer struct {
	Source string // "user file ~/.config/govibe/settings.json", "environment", "flag"
	Values Values
}

// Resolved is the effective settings and where each key came from.
type Resolved struct {
	Values   Values
	Sources  map[string]string // key → Layer.Source; absent = default
	Warnings []Warning
}

// Resolve lays the layers over each other in order. Renamed keys are
// converted; unknown keys are named in a warning (and kept, unread).
func Resolve(layers ...Layer) Resolved {
	r := Resolved{Values: Values{}, Sources: map[string]string{}}
	for _, l := range layers {
		v, warns := Normalize(l.Values)
		r.Warnings = append(r.Warnings, warns...)
		r.Warnings = append(r.Warnings, UnknownIn(v, l.Source)...)
		for k, x := range v {
			r.Values[k] = x
			r.Sources[k] = l.Source
		}
	}
	return r
}

// Entry is one line of `govibe config`.
type Entry struct {
	Key    string `json:"key"`
	Value  any    `json:"value"`
	Source string `json:"source"`
}

// SourceDefault marks a key nobody set.
const SourceDefault = "default"

// Entries lists every declared setting with its effective value and
// source, then any unknown keys that were set. Secrets show as "set" or
// "unset", never their value.
func (r Resolved) Entries() []Entry {
	var out []Entry
	for _, s := range Schema {
		src := r.Sources[s.Key]
		if src == "" {
			src = SourceDefault
		}
		val := r.Values.lookup(s.Key)
		if s.Secret {
			val = "unset"
			if r.Values.String(s.Key) != "" {
				val = "set"
			}
		}
		out = append(out, Entry{Key: s.Key, Value: val, Source: src})
	}
	var unknown []string
	for k := range r.Values {
		if Lookup(k) == nil {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		out = append(out, Entry{Key: k, Value: r.Values[k], Source: r.Sources[k] + " (unknown, ignored)"})
	}
	return out
}

// SecretEntry adds an entry for a secret that lives outside Values (the API
// key from the environment), shown as set/unset.
func SecretEntry(key string, set bool, source string) Entry {
	val := "unset"
	if set {
		val = "set"
	} else {
		source = SourceDefault
	}
	return Entry{Key: key, Value: val, Source: source}
}

// FileSource names the user settings file as a source.
func FileSource(path string) string { return fmt.Sprintf("user file %s", path) }
