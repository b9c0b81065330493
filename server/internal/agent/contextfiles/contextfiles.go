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

	"github.com/govibe/govibe/server/internal/workspace/safefile"
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
	// ApplyTo are the globs of a rule that attaches only when matching
	// files are in play (rules.go). Empty means always.
	ApplyTo   []string
	Truncated bool
	Hash      string
}

// Key identifies a file across loads.
func (f File) Key() string { return f.Root + "\x00" + f.Rel }

// Load reads the root-level files of every root (their @imports
// expanded), the extra names the user configured (govibe.contextFiles),
// the rules that attach by path (.github/instructions, .cursor/rules,
// .clinerules: rules.go), and the one-line pointer to the root's project memory (MemoryPointer).
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
				f, ps := withImports(f)
				files, problems = append(files, f), append(problems, ps...)
			}
		}
		for _, load := range []func(string) ([]File, []error){loadInstructions, loadCursorRules, loadClineRules} {
			fs, ps := load(root)
			files, problems = append(files, fs...), append(problems, ps...)
		}
		if f, ok := MemoryPointer(root); ok {
			files = append(files, f)
		}
	}
	return files, problems
}

// NestedNames are the context files read in the folders between a root
// and the files the agent works on, as Claude Code, Codex and Gemini CLI
// read theirs.
var NestedNames = []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md"}

// ForTouched returns the nested context files (NestedNames) of the folders
// between a root and each touched path (the agent read or wrote files
// there), excluding the root's own, which Load already has.
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
				for _, name := range NestedNames {
					n := filepath.ToSlash(filepath.Join(dir, name))
					if seen[root+"\x00"+n] {
						continue
					}
					seen[root+"\x00"+n] = true
					if f, ok, err := read(root, n); err != nil {
						problems = append(problems, err)
					} else if ok {
						f, ps := withImports(f)
						files, problems = append(files, f), append(problems, ps...)
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
	f.Hash = hashOf(buf[:n])
	return f, true, nil
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Applicable keeps the files that apply given the paths in play (relative
// slash paths, e.g. the active editor's file and the files touched).
func Applicable(files []File, inPlay []string) []File {
	var out []File
	for _, f := range files {
		if always(f.ApplyTo) {
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

// Render formats files for the model, within MaxTotalBytes; multi-root
// paths are prefixed with the root's folder name.
func Render(files []File, multiRoot bool) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<context_files>\nInstructions the project keeps for coding agents. Follow them; a file in a deeper folder wins for its folder, and the user wins over them all.\n")
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
