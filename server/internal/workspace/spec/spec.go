// Package spec validates and archives spec-driven changes, in the layout of
// the built-in spec-driven skill (OpenSpec's): agreed behaviour lives in
// specs/<capability>/spec.md, each proposed change in changes/<id>/ with a
// proposal, a task list and requirement deltas. Validation is mechanical,
// so the model and the user get the same answer every time.
package spec

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// Problem is one validation failure, at a file and line.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return p.File + ": " + p.Message
}

// Delta operations.
const (
	OpAdded    = "ADDED"
	OpModified = "MODIFIED"
	OpRemoved  = "REMOVED"
	OpRenamed  = "RENAMED"
)

// Requirement is one "### Requirement:" block.
type Requirement struct {
	Name      string
	Body      string // the block's text, heading included
	Line      int
	Scenarios int
	HasShall  bool
	BadScen   []int // lines of scenarios without WHEN/THEN, or with the wrong heading level
}

// Delta is one delta file of a change.
type Delta struct {
	Capability string
	File       string
	Ops        map[string][]Requirement // by operation
	Renames    [][2]string
	headers    []string
}

var (
	idRE       = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,62}$`)
	opHeaderRE = regexp.MustCompile(`^## (ADDED|MODIFIED|REMOVED|RENAMED) Requirements\s*$`)
	anyH2RE    = regexp.MustCompile(`^## `)
	reqRE      = regexp.MustCompile(`^### Requirement:\s*(.+?)\s*$`)
	scenRE     = regexp.MustCompile(`^(#+) Scenario:\s*(.+?)\s*$`)
	renameRE   = regexp.MustCompile(`^-\s*FROM:\s*(.+?)\s+TO:\s*(.+?)\s*$`)
	shallRE    = regexp.MustCompile(`\b(SHALL|MUST)\b`)
	taskRE     = regexp.MustCompile(`(?m)^\s*- \[( |x|X)\] `)
)

// ValidateChange checks changes/<id> under root against the rules of the
// spec-driven skill and returns every problem found (none: valid).
func ValidateChange(root, id string) []Problem {
	if !idRE.MatchString(id) {
		return []Problem{{File: "changes/" + id, Message: "a change id is short kebab-case, e.g. add-csv-export"}}
	}
	dir := filepath.Join(root, "changes", id)
	rel := func(p string) string { r, _ := filepath.Rel(root, p); return filepath.ToSlash(r) }
	var ps []Problem
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return []Problem{{File: rel(dir), Message: "no such change folder"}}
	}
	proposal := filepath.Join(dir, "proposal.md")
	if data, err := readSpecFile(proposal); err != nil {
		ps = append(ps, Problem{File: rel(proposal), Message: unreadable(err, "missing: every change needs a proposal.md")})
	} else {
		for _, h := range []string{"## Why", "## What Changes"} {
			if !hasLine(string(data), h) {
				ps = append(ps, Problem{File: rel(proposal), Message: fmt.Sprintf("missing the section %q", h)})
			}
		}
	}
	tasks := filepath.Join(dir, "tasks.md")
	if data, err := readSpecFile(tasks); err != nil {
		ps = append(ps, Problem{File: rel(tasks), Message: unreadable(err, "missing: every change needs a tasks.md checklist")})
	} else if !taskRE.Match(data) {
		ps = append(ps, Problem{File: rel(tasks), Message: "no checklist items ('- [ ] 1.1 ...')"})
	}
	deltas, dps := readDeltas(root, dir)
	ps = append(ps, dps...)
	if len(deltas) == 0 && len(dps) == 0 {
		ps = append(ps, Problem{File: rel(dir), Message: "no requirement deltas: add specs/<capability>/spec.md inside the change"})
	}
	for _, d := range deltas {
		ps = append(ps, validateDelta(root, d)...)
	}
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].File != ps[j].File {
			return ps[i].File < ps[j].File
		}
		return ps[i].Line < ps[j].Line
	})
	return ps
}

// maxSpecFile bounds one spec file read; specs are prose, far smaller.
const maxSpecFile = 8 << 20

// readSpecFile reads a file of the workspace's spec tree: a FIFO or a
// device there is refused by kind, never waited on (issue 31).
func readSpecFile(path string) ([]byte, error) { return safefile.ReadFile(path, maxSpecFile) }

// unreadable words a spec file that could not be read: missing is the
// problem for an absent file; a special or oversized one says so.
func unreadable(err error, missing string) string {
	var ke *safefile.KindError
	var tl *safefile.TooLargeError
	switch {
	case errors.As(err, &ke):
		return fmt.Sprintf("it is %s, not a regular file", safefile.Kind(ke.Mode))
	case errors.As(err, &tl):
		return fmt.Sprintf("larger than %d MB; a spec file should be far smaller", maxSpecFile>>20)
	}
	return missing
}

func hasLine(s, prefix string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			return true
		}
	}
	return false
}

func readDeltas(root, dir string) ([]Delta, []Problem) {
	var out []Delta
	var ps []Problem
	matches, _ := filepath.Glob(filepath.Join(dir, "specs", "*", "spec.md"))
	sort.Strings(matches)
	for _, m := range matches {
		r, _ := filepath.Rel(root, m)
		d, err := parseDelta(m, filepath.ToSlash(r))
		if err != nil {
			ps = append(ps, Problem{File: filepath.ToSlash(r), Message: err.Error()})
			continue
		}
		d.Capability = filepath.Base(filepath.Dir(m))
		out = append(out, d)
	}
	return out, ps
}

func parseDelta(path, rel string) (Delta, error) {
	f, _, err := safefile.Open(path, safefile.Options{})
	if err != nil {
		return Delta{}, errors.New(unreadable(err, "cannot be read: "+err.Error()))
	}
	defer f.Close()
	d := Delta{File: rel, Ops: map[string][]Requirement{}}
	op := ""
	var cur *Requirement
	flush := func() {
		if cur != nil && op != "" {
			d.Ops[op] = append(d.Ops[op], *cur)
		}
		cur = nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	var scenLine int
	var scenWhen, scenThen bool
	endScen := func() {
		if cur != nil && scenLine > 0 && (!scenWhen || !scenThen) {
			cur.BadScen = append(cur.BadScen, scenLine)
		}
		scenLine, scenWhen, scenThen = 0, false, false
	}
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case opHeaderRE.MatchString(line):
			endScen()
			flush()
			op = opHeaderRE.FindStringSubmatch(line)[1]
			d.headers = append(d.headers, op)
		case anyH2RE.MatchString(line):
			endScen()
			flush()
			op = ""
			d.headers = append(d.headers, "?"+fmt.Sprint(n)+":"+strings.TrimSpace(line))
		case reqRE.MatchString(line):
			endScen()
			flush()
			cur = &Requirement{Name: reqRE.FindStringSubmatch(line)[1], Line: n, Body: line + "\n"}
		case scenRE.MatchString(line) && cur != nil:
			endScen()
			m := scenRE.FindStringSubmatch(line)
			cur.Scenarios++
			cur.Body += line + "\n"
			scenLine = n
			if m[1] != "####" {
				cur.BadScen = append(cur.BadScen, n)
				scenLine = 0
			}
		default:
			if op == OpRenamed {
				if m := renameRE.FindStringSubmatch(line); m != nil {
					d.Renames = append(d.Renames, [2]string{m[1], m[2]})
				}
			}
			if cur != nil {
				cur.Body += line + "\n"
				if shallRE.MatchString(line) && cur.Scenarios == 0 {
					cur.HasShall = true
				}
				t := strings.TrimSpace(line)
				if scenLine > 0 && strings.Contains(t, "WHEN") {
					scenWhen = true
				}
				if scenLine > 0 && strings.Contains(t, "THEN") {
					scenThen = true
				}
			}
		}
	}
	endScen()
	flush()
	return d, sc.Err()
}

func validateDelta(root string, d Delta) []Problem {
	var ps []Problem
	ops := 0
	for _, h := range d.headers {
		if strings.HasPrefix(h, "?") {
			parts := strings.SplitN(h[1:], ":", 2)
			var line int
			fmt.Sscan(parts[0], &line)
			ps = append(ps, Problem{File: d.File, Line: line, Message: fmt.Sprintf("unknown section %q: use ## ADDED|MODIFIED|REMOVED|RENAMED Requirements", parts[1])})
			continue
		}
		ops++
	}
	if ops == 0 {
		ps = append(ps, Problem{File: d.File, Message: "no delta sections (## ADDED Requirements, ...)"})
	}
	current := currentRequirements(root, d.Capability)
	seen := map[string]int{}
	for _, op := range []string{OpAdded, OpModified, OpRemoved} {
		for _, r := range d.Ops[op] {
			if prev, dup := seen[r.Name]; dup {
				ps = append(ps, Problem{File: d.File, Line: r.Line, Message: fmt.Sprintf("requirement %q appears twice (first on line %d)", r.Name, prev)})
			}
			seen[r.Name] = r.Line
			if op != OpRemoved {
				if !r.HasShall {
					ps = append(ps, Problem{File: d.File, Line: r.Line, Message: fmt.Sprintf("requirement %q needs a SHALL or MUST statement before its scenarios", r.Name)})
				}
				if r.Scenarios == 0 {
					ps = append(ps, Problem{File: d.File, Line: r.Line, Message: fmt.Sprintf("requirement %q needs at least one '#### Scenario:'", r.Name)})
				}
				for _, l := range r.BadScen {
					ps = append(ps, Problem{File: d.File, Line: l, Message: "a scenario is '#### Scenario: <name>' with a WHEN line and a THEN line"})
				}
			}
			_, exists := current[r.Name]
			switch {
			case op == OpAdded && exists:
				ps = append(ps, Problem{File: d.File, Line: r.Line, Message: fmt.Sprintf("requirement %q already exists in specs/%s/spec.md: use MODIFIED", r.Name, d.Capability)})
			case op != OpAdded && !exists:
				ps = append(ps, Problem{File: d.File, Line: r.Line, Message: fmt.Sprintf("requirement %q is not in specs/%s/spec.md, so it cannot be %s", r.Name, d.Capability, strings.ToLower(op))})
			}
		}
	}
	for _, rn := range d.Renames {
		if _, ok := current[rn[0]]; !ok {
			ps = append(ps, Problem{File: d.File, Message: fmt.Sprintf("rename FROM %q: no such requirement in specs/%s/spec.md", rn[0], d.Capability)})
		}
	}
	return ps
}

// currentRequirements indexes specs/<capability>/spec.md by requirement.
func currentRequirements(root, capability string) map[string]Requirement {
	out := map[string]Requirement{}
	for _, r := range plainRequirements(filepath.Join(root, "specs", capability, "spec.md")) {
		out[r.Name] = r
	}
	return out
}

func plainRequirements(path string) []Requirement {
	data, err := readSpecFile(path)
	if err != nil {
		return nil
	}
	var out []Requirement
	var cur *Requirement
	for i, line := range strings.Split(string(data), "\n") {
		if m := reqRE.FindStringSubmatch(line); m != nil {
			if cur != nil {
				out = append(out, *cur)
			}
			cur = &Requirement{Name: m[1], Line: i + 1, Body: line + "\n"}
			continue
		}
		if cur != nil {
			if anyH2RE.MatchString(line) {
				out = append(out, *cur)
				cur = nil
				continue
			}
			cur.Body += line + "\n"
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}
