package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Sandbox is immutable after New and safe for concurrent use.
type Sandbox struct {
	roots []string // cleaned absolute roots, as given
	real  []string // roots with symlinks resolved (same index)
}

// EscapeError is returned for any path that is refused. Its message names
// the roots so the model can correct itself.
type EscapeError struct {
	Path   string
	Reason string
	Roots  []string
}

func (e *EscapeError) Error() string {
	return fmt.Sprintf("path %q refused: %s; allowed workspace roots: %s",
		e.Path, e.Reason, strings.Join(e.Roots, ", "))
}

// Bounds on a model-supplied path, checked before any work that grows with
// its length: PATH_MAX on Linux, and far more levels than any real tree.
const (
	MaxPathBytes      = 4096
	MaxPathComponents = 512
)

// ErrNoRoots is returned by Resolve when the sandbox has no roots.
var ErrNoRoots = errors.New("no workspace roots are open")

// New builds a sandbox over roots. Relative or duplicate roots are made
// absolute and kept once; roots that cannot be resolved through symlinks
// (e.g. not created yet) keep their lexical form.
func New(roots []string) *Sandbox {
	s := &Sandbox{}
	seen := map[string]bool{}
	for _, r := range roots {
		if r == "" {
			continue
		}
		abs, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		abs = filepath.Clean(abs)
		if seen[key(abs)] {
			continue
		}
		seen[key(abs)] = true
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			real = abs
		}
		s.roots = append(s.roots, abs)
		s.real = append(s.real, filepath.Clean(real))
	}
	return s
}

// Roots returns a copy of the workspace roots (first is the default cwd).
func (s *Sandbox) Roots() []string { return append([]string(nil), s.roots...) }

// Resolve maps a model-supplied path to an absolute path inside a root.
// "" and "." mean the first root. A relative path is taken relative to the
// first root; when it does not exist there but exists under another root,
// or starts with another root's folder name, that root is used instead.
func (s *Sandbox) Resolve(path string) (string, error) {
	if len(s.roots) == 0 {
		return "", ErrNoRoots
	}
	p, err := s.lexical(path)
	if err != nil {
		return "", err
	}
	if err := s.checkReal(path, p); err != nil {
		return "", err
	}
	return p, nil
}

// ResolveForWrite is Resolve plus a refusal of anything inside a .git
// directory, whose contents the model must never rewrite directly.
func (s *Sandbox) ResolveForWrite(path string) (string, error) {
	p, err := s.Resolve(path)
	if err != nil {
		return "", err
	}
	for _, cand := range []string{p, s.realPath(p)} {
		_, rel, ok := s.rootOf(cand)
		if !ok {
			continue
		}
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			if strings.EqualFold(part, ".git") {
				return "", s.refuse(path, "writing inside a .git directory is not allowed")
			}
		}
	}
	return p, nil
}

// Display renders an absolute path for the model: relative to the first
// root when inside it, otherwise "<root folder name>/<rel>", otherwise as is.
func (s *Sandbox) Display(abs string) string {
	i, rel, ok := s.rootOf(abs)
	if !ok {
		return abs
	}
	rel = filepath.ToSlash(rel)
	if i == 0 {
		return rel
	}
	base := filepath.Base(s.roots[i])
	if rel == "." {
		return base
	}
	return base + "/" + rel
}

// Root returns the root containing abs (lexically), or "" if none.
func (s *Sandbox) Root(abs string) string {
	i, _, ok := s.rootOf(abs)
	if !ok {
		return ""
	}
	return s.roots[i]
}

func (s *Sandbox) refuse(path, reason string) error {
	return &EscapeError{Path: path, Reason: reason, Roots: s.Roots()}
}

// lexical validates the spelling of path and joins it to a root.
func (s *Sandbox) lexical(path string) (string, error) {
	if len(path) > MaxPathBytes {
		return "", s.refuse(shorten(path), fmt.Sprintf("the path is %d bytes long; at most %d are allowed", len(path), MaxPathBytes))
	}
	if n := components(path); n > MaxPathComponents {
		return "", s.refuse(shorten(path), fmt.Sprintf("the path has %d components; at most %d are allowed", n, MaxPathComponents))
	}
	if strings.ContainsRune(path, 0) {
		return "", s.refuse(path, "path contains a NUL byte")
	}
	p := path
	if runtime.GOOS != "windows" {
		// Models trained on Windows paths send backslashes; treating them
		// as separators makes `..\x` an escape attempt instead of a file
		// literally named "..\x".
		p = strings.ReplaceAll(p, `\`, "/")
	}
	if strings.HasPrefix(p, "//") || strings.HasPrefix(p, `\\`) {
		return "", s.refuse(path, "UNC and device paths (\\\\server\\share, //?/) are not allowed")
	}
	if hasDriveLetter(p) && runtime.GOOS != "windows" {
		return "", s.refuse(path, "Windows drive paths are not valid here")
	}
	if runtime.GOOS == "windows" {
		if len(p) >= 2 && p[1] == ':' && (len(p) == 2 || (p[2] != '\\' && p[2] != '/')) {
			// "C:foo" is relative to the drive's current directory.
			return "", s.refuse(path, "drive-relative paths like C:foo are not allowed")
		}
		if strings.ContainsAny(p, "<>\"|?*") || strings.Contains(p, ":") && !hasDriveLetter(p) {
			return "", s.refuse(path, "alternate data streams and wildcard characters are not allowed")
		}
	}
	if p == "" || p == "." {
		return s.roots[0], nil
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") {
		c := filepath.Clean(filepath.FromSlash(p))
		if _, _, ok := s.rootOf(c); ok {
			return c, nil
		}
		// Accept the symlink-resolved spelling of a root (e.g. /private/var
		// on macOS) as well.
		for i, r := range s.real {
			if rel, ok := within(r, c); ok {
				return filepath.Join(s.roots[i], rel), nil
			}
		}
		return "", s.refuse(path, "absolute path is outside the workspace")
	}
	rel := filepath.Clean(filepath.FromSlash(p))
	if rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		// A path like ../other/x may still name a sibling root.
		c := filepath.Join(s.roots[0], rel)
		if _, _, ok := s.rootOf(c); ok {
			return c, nil
		}
		return "", s.refuse(path, "'..' leads outside the workspace")
	}
	first := filepath.Join(s.roots[0], rel)
	if len(s.roots) == 1 || exists(first) {
		return first, nil
	}
	for _, r := range s.roots[1:] {
		if c := filepath.Join(r, rel); exists(c) {
			return c, nil
		}
	}
	head, tail, _ := strings.Cut(filepath.ToSlash(rel), "/")
	for _, r := range s.roots[1:] {
		if filepath.Base(r) == head {
			return filepath.Join(r, filepath.FromSlash(tail)), nil
		}
	}
	return first, nil
}

// checkReal resolves the longest existing ancestor of p through symlinks
// and requires the result to stay inside a root's real path.
func (s *Sandbox) checkReal(orig, p string) error {
	real := s.realPath(p)
	for _, r := range s.real {
		if _, ok := within(r, real); ok {
			return nil
		}
	}
	for _, r := range s.roots {
		if _, ok := within(r, real); ok {
			return nil
		}
	}
	return s.refuse(orig, fmt.Sprintf("it resolves through a symlink to %s, outside the workspace", real))
}

// realPath returns p with symlinks resolved in its longest existing prefix;
// the missing tail is appended unchanged.
func (s *Sandbox) realPath(p string) string { return realPathDepth(p, 0) }

// realPathDepth walks p forward, one component at a time, to the longest
// prefix that resolves; that prefix is resolved once and the rest appended.
// Walking back from the full path instead (EvalSymlinks on every shorter
// prefix) costs the square of the length: "a/" x 60,000 took 21 s.
func realPathDepth(p string, depth int) string {
	ends := prefixEnds(p)
	k := -1 // index in ends of the longest prefix that resolves
	for i, e := range ends {
		if _, err := os.Stat(p[:e]); err != nil {
			break
		}
		k = i
	}
	if k+1 < len(ends) && depth < 40 {
		// The first prefix that does not resolve may be a dangling link:
		// follow it by hand so that creating the file through it cannot
		// land outside the workspace.
		next := p[:ends[k+1]]
		if fi, err := os.Lstat(next); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			if target, err := os.Readlink(next); err == nil {
				if !filepath.IsAbs(target) {
					target = filepath.Join(filepath.Dir(next), target)
				}
				return joinTail(realPathDepth(target, depth+1), p[ends[k+1]:])
			}
		}
	}
	if k < 0 {
		return p
	}
	r, err := filepath.EvalSymlinks(p[:ends[k]])
	if err != nil {
		return p
	}
	return joinTail(r, p[ends[k]:])
}

// prefixEnds returns the end offsets of p's successive prefixes: for
// "/a/b" that is "/", "/a", "/a/b".
func prefixEnds(p string) []int {
	vol := len(filepath.VolumeName(p))
	var ends []int
	i := vol
	for i < len(p) && os.IsPathSeparator(p[i]) {
		i++
	}
	if i > vol {
		ends = append(ends, i)
	}
	for i < len(p) {
		j := i
		for j < len(p) && !os.IsPathSeparator(p[j]) {
			j++
		}
		if j > i {
			ends = append(ends, j)
		}
		for j < len(p) && os.IsPathSeparator(p[j]) {
			j++
		}
		i = j
	}
	return ends
}

func joinTail(base, tail string) string {
	tail = strings.TrimLeft(tail, `/\`)
	if tail == "" {
		return base
	}
	return filepath.Join(base, tail)
}

// components counts the non-empty segments of a path in either separator.
func components(p string) int {
	n, in := 0, false
	for i := 0; i < len(p); i++ {
		if p[i] == '/' || p[i] == '\\' {
			in = false
			continue
		}
		if !in {
			n++
			in = true
		}
	}
	return n
}

// shorten keeps an error about a huge path readable: its start and length.
func shorten(p string) string {
	if len(p) <= 200 {
		return p
	}
	return p[:200] + fmt.Sprintf("… (%d bytes)", len(p))
}

func (s *Sandbox) rootOf(abs string) (int, string, bool) {
	for i, r := range s.roots {
		if rel, ok := within(r, abs); ok {
			return i, rel, true
		}
	}
	return -1, "", false
}

// within reports whether p is root or below it, and the relative path.
func within(root, p string) (string, bool) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		// Case-insensitive file systems: compare folded spellings.
		if strings.EqualFold(root, p) {
			return ".", true
		}
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return "", false
	}
	if rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
			lr, err := filepath.Rel(strings.ToLower(root), strings.ToLower(p))
			if err == nil && lr != ".." && !strings.HasPrefix(lr, ".."+string(filepath.Separator)) {
				return p[len(p)-len(lr):], true
			}
		}
		return "", false
	}
	return rel, true
}

func hasDriveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0]|0x20) >= 'a' && (p[0]|0x20) <= 'z'
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func key(p string) string {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		return strings.ToLower(p)
	}
	return p
}
