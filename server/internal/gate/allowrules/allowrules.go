// Package allowrules keeps the user-level allow rules that "Always allow"
// on a confirmation card wrote: a JSON file beside the user settings file
// ($XDG_CONFIG_HOME/govibe/allow-rules.json, by default
// ~/.config/govibe/allow-rules.json). Only the user's own config folder is
// ever read or written, so nothing a workspace holds can add a rule. The
// rules count as user allow rules (govibe.permissions.allow) in the
// permission policy and for MCP tools; they are listed and revoked from
// the editor (GoVibe: Always-Allowed Rules) and `govibe permissions`.
package allowrules

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/govibe/govibe/server/internal/gate/permission"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/util/fsatomic"
)

// Entry is one rule and when it was added.
type Entry struct {
	Rule  string    `json:"rule"`
	Added time.Time `json:"added"`
}

// fileShape is the file's content. Version lets a later format be told
// apart.
type fileShape struct {
	Version int     `json:"version"`
	Rules   []Entry `json:"rules"`
}

// ErrNotFound is returned when revoking a rule the file does not hold.
var ErrNotFound = errors.New("no such always-allow rule")

// DefaultPath is the file beside the user settings file.
func DefaultPath() string {
	return filepath.Join(filepath.Dir(config.UserFile()), "allow-rules.json")
}

// File is the rules file. Reads are cached and re-read when the file
// changes on disk (another window, `govibe permissions revoke`, a manual
// edit). Safe for concurrent use.
type File struct {
	path string

	mu      sync.Mutex
	cached  []Entry
	modTime time.Time
	size    int64
	loaded  bool
	bad     error // the last read's problem, reported by Problem
}

// Open names the file; nothing is read until first use. An empty path is
// a File that holds nothing and refuses additions.
func Open(path string) *File { return &File{path: path} }

// Path is where the rules live.
func (f *File) Path() string {
	if f == nil {
		return ""
	}
	return f.path
}

// Validate accepts what a permission rule may be: the rule grammar
// (Bash(go test:*), mcp__server__tool) or a server-wide MCP rule
// (mcp__server__*), which the MCP approver matches itself.
func Validate(rule string) (string, error) {
	r := strings.TrimSpace(rule)
	if strings.HasPrefix(r, "mcp__") && strings.HasSuffix(r, "__*") {
		if _, err := permission.Parse(strings.TrimSuffix(r, "__*")); err != nil {
			return "", err
		}
		return r, nil
	}
	p, err := permission.Parse(r)
	if err != nil {
		return "", err
	}
	return p.String(), nil
}

// List returns the rules, oldest first. A malformed file is an error
// naming it; its rules then do not apply (Rules returns none).
func (f *File) List() ([]Entry, error) {
	if f == nil || f.path == "" {
		return nil, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.refresh(); err != nil {
		return nil, err
	}
	return append([]Entry(nil), f.cached...), nil
}

// Rules are the rule texts that apply now; invalid entries (a manual
// edit) are left out.
func (f *File) Rules() []string {
	es, _ := f.List()
	out := make([]string, 0, len(es))
	for _, e := range es {
		if r, err := Validate(e.Rule); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// Add appends rules not already present and returns the ones added.
// Every rule is validated first; one invalid rule adds nothing.
func (f *File) Add(rules ...string) ([]string, error) {
	if f == nil || f.path == "" {
		return nil, errors.New("no file for always-allow rules is configured")
	}
	var valid []string
	for _, r := range rules {
		v, err := Validate(r)
		if err != nil {
			return nil, fmt.Errorf("always-allow rule %q: %w", r, err)
		}
		valid = append(valid, v)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.refresh(); err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, e := range f.cached {
		have[e.Rule] = true
	}
	next := append([]Entry(nil), f.cached...)
	var added []string
	now := time.Now().UTC().Truncate(time.Second)
	for _, r := range valid {
		if !have[r] {
			have[r] = true
			next = append(next, Entry{Rule: r, Added: now})
			added = append(added, r)
		}
	}
	if len(added) == 0 {
		return nil, nil
	}
	return added, f.write(next)
}

// Revoke removes a rule (as listed). Revoking a rule that is not there is
// ErrNotFound, so a typo is not mistaken for success.
func (f *File) Revoke(rule string) error {
	if f == nil || f.path == "" {
		return ErrNotFound
	}
	want := strings.TrimSpace(rule)
	if v, err := Validate(want); err == nil {
		want = v
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.refresh(); err != nil {
		return err
	}
	next := make([]Entry, 0, len(f.cached))
	found := false
	for _, e := range f.cached {
		if e.Rule == want || e.Rule == strings.TrimSpace(rule) {
			found = true
			continue
		}
		next = append(next, e)
	}
	if !found {
		return fmt.Errorf("%w: %s", ErrNotFound, rule)
	}
	return f.write(next)
}

// refresh re-reads the file when it changed. Called with f.mu held.
func (f *File) refresh() error {
	fi, err := os.Stat(f.path)
	if os.IsNotExist(err) {
		f.cached, f.loaded, f.bad = nil, true, nil
		f.modTime, f.size = time.Time{}, 0
		return nil
	}
	if err != nil {
		return err
	}
	if f.loaded && fi.ModTime().Equal(f.modTime) && fi.Size() == f.size {
		return f.bad
	}
	data, err := os.ReadFile(f.path)
	if err != nil {
		return err
	}
	f.modTime, f.size, f.loaded = fi.ModTime(), fi.Size(), true
	var shape fileShape
	if err := json.Unmarshal(data, &shape); err != nil {
		f.cached = nil
		f.bad = fmt.Errorf("%s: expected {\"version\":1,\"rules\":[{\"rule\":...}]}: %v", f.path, err)
		return f.bad
	}
	f.cached, f.bad = shape.Rules, nil
	return nil
}

// write replaces the file atomically (owner-only: it grants permissions)
// and updates the cache. Called with f.mu held.
func (f *File) write(es []Entry) error {
	if f.bad != nil {
		// Never overwrite a file the user may be halfway through editing.
		return f.bad
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].Added.Before(es[j].Added) })
	data, err := json.MarshalIndent(fileShape{Version: 1, Rules: es}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return err
	}
	if err := fsatomic.WriteFile(f.path, append(data, '\n'), 0o600); err != nil {
		return err
	}
	f.loaded = false
	return f.refresh()
}
