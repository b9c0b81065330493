package snapshot

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreRules holds the gitignore patterns in force in one directory, in
// increasing priority: global excludes, info/exclude, then .gitignore files
// from the root down. Values are never mutated once built, so a child can
// share its parent's slice.
type ignoreRules struct {
	patterns []gitignore.Pattern
}

func (r *ignoreRules) match(path []string, isDir bool) bool {
	for i := len(r.patterns) - 1; i >= 0; i-- {
		if m := r.patterns[i].Match(path, isDir); m != gitignore.NoMatch {
			return m == gitignore.Exclude
		}
	}
	return false
}

func (r *ignoreRules) with(more []gitignore.Pattern) *ignoreRules {
	if len(more) == 0 {
		return r
	}
	ps := make([]gitignore.Pattern, 0, len(r.patterns)+len(more))
	ps = append(append(ps, r.patterns...), more...)
	return &ignoreRules{patterns: ps}
}

// readPatterns parses a gitignore-format file; a missing file has no
// patterns. domain is the directory (as path components) the file governs.
func readPatterns(path string, domain []string) []gitignore.Pattern {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// globalExcludesPath finds the user's global excludes file the way git does:
// core.excludesFile from $XDG_CONFIG_HOME/git/config or ~/.gitconfig (the
// latter wins), else $XDG_CONFIG_HOME/git/ignore.
func globalExcludesPath() string {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var candidates []string
	if xdg != "" {
		candidates = append(candidates, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		candidates = append(candidates, filepath.Join(home, ".gitconfig"))
	}
	file := ""
	for _, c := range candidates {
		if v := excludesFileSetting(c); v != "" {
			file = v
		}
	}
	if file == "" {
		if xdg == "" {
			return ""
		}
		return filepath.Join(xdg, "git", "ignore")
	}
	if rest, ok := strings.CutPrefix(file, "~/"); ok && home != "" {
		file = filepath.Join(home, rest)
	}
	return file
}

func excludesFileSetting(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	cfg := config.New()
	if err := config.NewDecoder(f).Decode(cfg); err != nil {
		return ""
	}
	return cfg.Section("core").Options.Get("excludesfile")
}

// infoExcludePath returns the info/exclude file of the repository whose
// work tree is dir, reading (never writing) its .git entry. It supports a
// .git directory and the "gitdir:" file used by worktrees and submodules.
func infoExcludePath(dir string) string {
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil {
		return ""
	}
	if fi.IsDir() {
		return filepath.Join(dotgit, "info", "exclude")
	}
	data, err := os.ReadFile(dotgit)
	if err != nil {
		return ""
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(dir, gitdir)
	}
	if common, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitdir, c)
		}
		gitdir = c
	}
	return filepath.Join(gitdir, "info", "exclude")
}

// rootIgnoreRules loads the rules that apply before any .gitignore.
func rootIgnoreRules(root string) *ignoreRules {
	r := &ignoreRules{}
	if p := globalExcludesPath(); p != "" {
		r = r.with(readPatterns(p, nil))
	}
	if p := infoExcludePath(root); p != "" {
		r = r.with(readPatterns(p, nil))
	}
	return r
}
