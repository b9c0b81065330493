// Package contextfiles finds the instruction files teams already commit
// (AGENTS.md, CLAUDE.md, GEMINI.md, Copilot's instructions) and renders
// them for the model. They are plain text that cannot run anything, so
// they load in untrusted workspaces too. They are sent in the first user
// message of a session and again, as a notice, when they change: never in
// the system prompt, whose bytes must stay stable for the provider's cache.
package contextfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/govibe/govibe/server/internal/frontmatter"
	"github.com/govibe/govibe/server/internal/safefile"
)

// Caps: one file, and everything rendered at once.
const (
	MaxFileBytes  = 32 << 10
	MaxTotalBytes = 96 << 10
)

// RootNames are read at each workspace root, in this order.
var RootNames = []string{"AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", "GEMINI.md", ".github/copilot-instructions.md"}

// File is one loaded context file.
type File struct {
	Root    string // workspace root it belongs to
	Rel     string // slash path relative to Root
	Content string
	// ApplyTo is the glob of a *.instructions.md file: it attaches only
	// when matching files are in play. Empty means always.
	ApplyTo   string
	Truncated bool
	Hash      string
}

// Key identifies a file across loads.
func (f File) Key() string { return f.Root + "\x00" + f.Rel }

// Load reads the root-level files of every root, the extra names the user
// configured (govibe.contextFiles), .github/instructions/*.instructions.md,
// and the one-line pointer to the root's project memory (MemoryPointer).
// Missing files are skipped; unreadable ones are reported.
func Load(roots, extra []string) (files []File, problems []error) {
	var inside []string
	for _, n := range extra {
		// govibe.contextFiles names files in each root; one that leaves
		// the workspace is refused, and said so.
		c := filepath.ToSlash(filepath.Clean(n))
		if c == ".." || strings.HasPrefix(c, "../") || filepath.IsAbs(n) || strings.HasPrefix(n, "/") {
			problems = append(problems, fmt.Errorf("govibe.contextFiles: %q is outside the workspace and was not loaded (name a file relative to the workspace folder)", n))
			continue
		}
		inside = append(inside, n)
	}
	for _, root := range roots {
		names := append(append([]string{}, RootNames...), inside...)
		seen := map[string]bool{}
		for _, n := range names {
			n = filepath.ToSlash(filepath.Clean(n))
			if seen[n] || n == "." {
				continue
			}
			seen[n] = true
			if f, ok, err := read(root, n); err != nil {
				problems = append(problems, err)
			} else if ok {
				files = append(files, f)
			}
		}
		matches, _ := filepath.Glob(filepath.Join(root, ".github", "instructions", "*.instructions.md"))
		sort.Strings(matches)
		for _, m := range matches {
			rel, _ := filepath.Rel(root, m)
			f, ok, err := read(root, filepath.ToSlash(rel))
			if err != nil {
				problems = append(problems, err)
				continue
			}
			if !ok {
				continue
			}
			doc, derr := frontmatter.Split([]byte(f.Content), false)
			var fm struct {
				ApplyTo string `yaml:"applyTo"`
			}
			if derr == nil {
				derr = doc.Decode(&fm, false)
			}
			if derr != nil {
				problems = append(problems, fmt.Errorf("%s: %v", m, derr))
				continue
			}
			f.Content, f.ApplyTo = strings.TrimSpace(doc.Body), strings.TrimSpace(fm.ApplyTo)
			files = append(files, f)
		}
		if f, ok := MemoryPointer(root); ok {
			files = append(files, f)
		}
	}
	return files, problems
}

// ForTouched returns the AGENTS.md files of the folders between a root and
// each touched path (the agent read or wrote files there), excluding the
// root's own, which Load already has.
func ForTouched(roots []string, touched []string) (files []File, problems []error) {
	seen := map[string]bool{}
	for _, p := range touched {
		for _, root := range roots {
			rel, err := filepath.Rel(root, p)
			if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
				continue
			}
			dir := filepath.Dir(rel)
			for dir != "." && dir != string(filepath.Separator) {
				n := filepath.ToSlash(filepath.Join(dir, "AGENTS.md"))
				if !seen[root+n] {
					seen[root+n] = true
					if f, ok, err := read(root, n); err != nil {
						problems = append(problems, err)
					} else if ok {
						files = append(files, f)
					}
				}
				dir = filepath.Dir(dir)
			}
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Key() < files[j].Key() })
	return files, problems
}

// read loads root/rel when it exists and is a regular file inside root
// (a symlink leading out of the workspace is not followed).
func read(root, rel string) (File, bool, error) {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	st, err := os.Lstat(abs)
	if err != nil {
		return File{}, false, nil
	}
	if st.Mode()&os.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(abs)
		rroot, _ := filepath.EvalSymlinks(root)
		if err != nil || !strings.HasPrefix(real, rroot+string(filepath.Separator)) {
			return File{}, false, fmt.Errorf("%s: a link leading outside the workspace is not read", abs)
		}
		st, err = os.Stat(real)
		if err != nil {
			return File{}, false, nil
		}
	}
	if !st.Mode().IsRegular() {
		return File{}, false, nil
	}
	// The kind is checked again on the descriptor: a FIFO swapped in
	// since the stat is refused rather than waited on (issue 31).
	fh, _, err := safefile.Open(abs, safefile.Options{})
	if errors.Is(err, safefile.ErrNotRegular) {
		return File{}, false, nil
	}
	if err != nil {
		return File{}, false, fmt.Errorf("%s: %v", abs, err)
	}
	defer fh.Close()
	buf := make([]byte, MaxFileBytes+1)
	n, _ := fh.Read(buf)
	for n < len(buf) {
		m, err := fh.Read(buf[n:])
		n += m
		if err != nil || m == 0 {
			break
		}
	}
	f := File{Root: root, Rel: rel}
	if n > MaxFileBytes {
		n, f.Truncated = MaxFileBytes, true
	}
	f.Content = strings.ToValidUTF8(string(buf[:n]), "\uFFFD")
	sum := sha256.Sum256(buf[:n])
	f.Hash = hex.EncodeToString(sum[:8])
	return f, true, nil
}

// Applicable keeps the files that apply given the paths in play (relative
// slash paths, e.g. the active editor's file and the files touched).
func Applicable(files []File, inPlay []string) []File {
	var out []File
	for _, f := range files {
		if f.ApplyTo == "" || f.ApplyTo == "**" || f.ApplyTo == "**/*" {
			out = append(out, f)
			continue
		}
		for _, p := range inPlay {
			if matchAny(f.ApplyTo, p) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

func matchAny(globs, p string) bool {
	for _, g := range strings.Split(globs, ",") {
		g = strings.TrimSpace(g)
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
		if ok, _ := doublestar.Match(g, filepath.Base(p)); ok && !strings.Contains(g, "/") {
			return true
		}
	}
	return false
}

// Render formats files for the model, within MaxTotalBytes; multi-root
// paths are prefixed with the root's folder name.
func Render(files []File, multiRoot bool) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<context_files>\nInstructions the project keeps for coding agents. Follow them unless the user says otherwise.\n")
	left := MaxTotalBytes
	for _, f := range files {
		name := f.Rel
		if multiRoot {
			name = filepath.Base(f.Root) + "/" + f.Rel
		}
		content := f.Content
		note := ""
		if f.Truncated {
			note = fmt.Sprintf(" (cut at %d KB; read_file shows the rest)", MaxFileBytes>>10)
		}
		if len(content) > left {
			content, note = content[:max(left, 0)], " (cut: the context files together exceed the limit; read_file shows the rest)"
		}
		left -= len(content)
		fmt.Fprintf(&b, "<file path=%q%s>\n%s\n</file>\n", name, attrNote(note), strings.TrimSpace(content))
		if left <= 0 {
			break
		}
	}
	b.WriteString("</context_files>")
	return b.String()
}

func attrNote(n string) string {
	if n == "" {
		return ""
	}
	return fmt.Sprintf(" note=%q", strings.TrimSpace(n))
}

// Changes compares two loads: what was added, changed or removed, as
// display names, for the notice a later user message carries.
func Changes(prev, cur []File) (added, changed, removed []string) {
	old := map[string]File{}
	for _, f := range prev {
		old[f.Key()] = f
	}
	for _, f := range cur {
		o, ok := old[f.Key()]
		switch {
		case !ok:
			added = append(added, f.Rel)
		case o.Hash != f.Hash:
			changed = append(changed, f.Rel)
		}
		delete(old, f.Key())
	}
	for _, f := range old {
		removed = append(removed, f.Rel)
	}
	sort.Strings(removed)
	return
}
