package permission

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

// shellState are builtins that only change the shell's own state; a
// read-only use of them needs no rule, so `cd web && npm test` is allowed
// by Bash(npm test*) alone.
var shellState = map[string]bool{
	"cd": true, "pushd": true, "popd": true, "true": true, "false": true,
	":": true, "set": true, "shopt": true, "test": true, "[": true,
}

// matchCommand reports whether a Bash specifier matches one sub-command.
// "*" matches any text (spaces included); a trailing " *" also matches the
// bare command ("ls *" matches "ls"); the legacy "prefix:*" matches the
// prefix as whole words.
func matchCommand(spec string, sub shellcheck.SubCommand) bool {
	if spec == "" {
		return true
	}
	text := sub.Text()
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		return text == prefix || strings.HasPrefix(text, prefix+" ")
	}
	if prefix, ok := strings.CutSuffix(spec, " *"); ok && text == prefix {
		return true
	}
	return wildcard(spec, text)
}

// wildcard matches s against p where '*' matches any run of characters.
func wildcard(p, s string) bool {
	// Iterative glob with backtracking to the last star: linear enough
	// for command lines and free of regexp compilation.
	pi, si := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, si
			pi++
		case pi < len(p) && p[pi] == s[si]:
			pi++
			si++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// matchPath reports whether a Read/Edit specifier matches an absolute path.
// "//abs/**" is an absolute pattern, "~/x/**" is under the home directory,
// and anything else ("src/**", "/src/**") is relative to a workspace root.
func matchPath(spec, abs string, ws shellcheck.Workspace) bool {
	if spec == "" {
		return true
	}
	pat := pathPattern(spec)
	switch {
	case strings.HasPrefix(spec, "//"):
		ok, _ := doublestar.Match(pat, abs)
		return ok
	case strings.HasPrefix(spec, "~/"):
		if ws.Home == "" {
			return false
		}
		rel, ok := relTo(abs, ws.Home)
		if !ok {
			return false
		}
		m, _ := doublestar.Match(pat, rel)
		return m
	}
	for _, root := range ws.Roots {
		rel, ok := relTo(abs, root)
		if !ok {
			continue
		}
		if m, _ := doublestar.Match(pat, rel); m {
			return true
		}
	}
	return false
}

func relTo(abs, dir string) (string, bool) {
	rel, err := filepath.Rel(filepath.Clean(dir), abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// matchDomain reports whether a WebFetch specifier matches a URL: the host
// itself or any subdomain of it.
func matchDomain(spec, rawURL string) bool {
	if spec == "" {
		return true
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return false
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	domain := strings.TrimPrefix(strings.TrimPrefix(spec, "domain:"), "*.")
	return host == domain || strings.HasSuffix(host, "."+domain)
}
