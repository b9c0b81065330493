package snapshot

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// ignoreRules holds the gitignore rules in force in one directory, in
// increasing priority: global excludes, info/exclude, then .gitignore files
// from the root down. Values are never mutated once built, so a child can
// share its parent's slice.
type ignoreRules struct {
	rules []rule
}

// rule is one gitignore line. Lines without a slash ("*.log", "build/")
// match a path's last component only: the walk never descends into an
// excluded directory and a rule set only holds rules from the current
// directory's ancestors, so that is all git's semantics need and it avoids
// re-matching every parent component of every file. Other lines go to
// go-git's full pattern matcher.
type rule struct {
	name    string // for name rules: the glob, or the literal name
	glob    bool
	suffix  string // for "*.ext"-style globs: the literal after the star
	dirOnly bool
	negate  bool
	full    gitignore.Pattern // non-nil for rules containing a slash
}

func (r *ignoreRules) match(path []string, isDir bool) bool {
	last := path[len(path)-1]
	for i := len(r.rules) - 1; i >= 0; i-- {
		ru := &r.rules[i]
		if ru.full != nil {
			if m := ru.full.Match(path, isDir); m != gitignore.NoMatch {
				return m == gitignore.Exclude
			}
			continue
		}
		if ru.dirOnly && !isDir {
			continue
		}
		var ok bool
		switch {
		case ru.suffix != "":
			ok = strings.HasSuffix(last, ru.suffix)
		case ru.glob:
			ok, _ = filepath.Match(ru.name, last)
		default:
			ok = last == ru.name
		}
		if ok {
			return !ru.negate
		}
	}
	return false
}

func (r *ignoreRules) with(more []rule) *ignoreRules {
	if len(more) == 0 {
		return r
	}
	rs := make([]rule, 0, len(r.rules)+len(more))
	rs = append(append(rs, r.rules...), more...)
	return &ignoreRules{rules: rs}
}

func parseRule(line string, domain []string) (rule, bool) {
	if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
		return rule{}, false
	}
	if !strings.HasSuffix(line, "\\ ") {
		line = strings.TrimRight(line, " ")
	}
	full := gitignore.ParsePattern(line, domain)
	var ru rule
	p := line
	if strings.HasPrefix(p, "!") {
		ru.negate, p = true, p[1:]
	} else if strings.HasPrefix(p, "\\!") || strings.HasPrefix(p, "\\#") {
		p = p[1:]
	}
	if strings.HasSuffix(p, "/") {
		ru.dirOnly, p = true, p[:len(p)-1]
	}
	if p == "" || strings.Contains(p, "/") || strings.Contains(p, "**") || strings.Contains(p, "\\") {
		return rule{full: full}, true
	}
	ru.name = p
	ru.glob = strings.ContainsAny(p, "*?[")
	if rest, ok := strings.CutPrefix(p, "*"); ok && rest != "" && !strings.ContainsAny(rest, "*?[") {
		ru.suffix = rest // the common "*.log" case, without glob matching
	}
	return ru, true
}

// maxIgnoreFile bounds one ignore file read by the scan.
const maxIgnoreFile = 4 << 20

// maxGitFile bounds a .git file or a commondir file: one path.
const maxGitFile = 64 << 10

// readPatterns parses a gitignore-format file; a missing file has no
// rules. domain is the directory (as path components) the file governs.
func readPatterns(path string, domain []string) []rule {
	// A FIFO or a device standing in for an ignore file is refused, not
	// waited on or read without end (issue 31).
	data, err := safefile.ReadFile(path, maxIgnoreFile)
	if err != nil {
		return nil
	}
	var rs []rule
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		if ru, ok := parseRule(strings.TrimSuffix(sc.Text(), "\r"), domain); ok {
			rs = append(rs, ru)
		}
	}
	return rs
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
	f, _, err := safefile.Open(path, safefile.Options{})
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
	// A .git file (worktrees, submodules) holds one line; a FIFO by that
	// name is refused, not waited on (issue 31).
	data, err := safefile.ReadFile(dotgit, maxGitFile)
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
	if common, err := safefile.ReadFile(filepath.Join(gitdir, "commondir"), maxGitFile); err == nil {
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
