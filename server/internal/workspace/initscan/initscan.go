// Package initscan explores a workspace root for /init: it lists the
// files (.gitignore honoured, through the tools' walker), finds the
// README, and picks at most ten further files worth reading by a score
// of their name, size and folder, so the model starts from the files
// that tell the most about the project instead of wandering.
package initscan

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Limits of one survey.
const (
	MaxPicks   = 10
	maxWalk    = 50000 // files looked at
	maxListing = 300   // paths the prompt lists
	// minScore keeps what only noise folders hold (vendored code,
	// fixtures) out of the picks however few files there are.
	minScore = -20
)

// Pick is a file chosen to be read.
type Pick struct {
	Path  string
	Size  int64
	Score int
}

// Survey is what /init learns before the model is called.
type Survey struct {
	Root    string
	Files   []string // sorted, at most maxListing
	Total   int      // files seen
	Partial bool     // the walk stopped at maxWalk
	Readme  string   // path of the README, "" when none
	Picks   []Pick   // best first
}

// Explore surveys root.
func Explore(root string) Survey {
	s := Survey{Root: root}
	var mu sync.Mutex
	var all []string
	tools.WalkFiles(root, func(rel string) bool {
		mu.Lock()
		defer mu.Unlock()
		if len(all) >= maxWalk {
			s.Partial = true
			return false
		}
		all = append(all, rel)
		return true
	})
	sort.Strings(all)
	s.Total = len(all)
	var cands []Pick
	for _, rel := range all {
		if s.Readme == "" && isReadme(rel) {
			s.Readme = rel
			continue
		}
		st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if sc, ok := Score(rel, st.Size()); ok && sc > minScore {
			cands = append(cands, Pick{Path: rel, Size: st.Size(), Score: sc})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].Score != cands[j].Score {
			return cands[i].Score > cands[j].Score
		}
		return cands[i].Path < cands[j].Path
	})
	s.Picks = cands[:min(len(cands), MaxPicks)]
	s.Files = all[:min(len(all), maxListing)]
	return s
}

func isReadme(rel string) bool {
	if strings.Contains(rel, "/") {
		return false
	}
	b := strings.ToLower(rel)
	return b == "readme" || strings.HasPrefix(b, "readme.")
}

var (
	buildFiles = map[string]bool{"go.mod": true, "package.json": true, "makefile": true, "pyproject.toml": true, "cargo.toml": true,
		"setup.py": true, "setup.cfg": true, "cmakelists.txt": true, "build.gradle": true, "build.gradle.kts": true, "pom.xml": true,
		"dockerfile": true, "docker-compose.yml": true, "compose.yaml": true, "tsconfig.json": true, "requirements.txt": true,
		"gemfile": true, "composer.json": true, "justfile": true, "taskfile.yml": true, "deno.json": true, "mix.exs": true}
	keyNames = map[string]bool{"main": true, "app": true, "index": true, "server": true, "cli": true, "config": true, "settings": true,
		"routes": true, "router": true, "api": true, "lib": true, "core": true, "engine": true, "handler": true, "handlers": true,
		"model": true, "models": true, "schema": true, "types": true, "store": true, "service": true, "__main__": true, "mod": true}
	noiseDirs = map[string]bool{"test": true, "tests": true, "__tests__": true, "spec": true, "specs": true, "fixtures": true,
		"testdata": true, "examples": true, "example": true, "vendor": true, "third_party": true, "dist": true, "build": true,
		"out": true, "target": true, "node_modules": true, "mocks": true, "generated": true, "gen": true, "docs": true,
		"assets": true, "static": true, "public": true, "migrations": true, "scripts": true, "bench": true, "benchmarks": true}
	sourceExts = map[string]bool{".go": true, ".ts": true, ".tsx": true, ".js": true, ".jsx": true, ".mjs": true, ".py": true,
		".rs": true, ".java": true, ".kt": true, ".c": true, ".cc": true, ".cpp": true, ".h": true, ".hpp": true, ".rb": true,
		".php": true, ".cs": true, ".swift": true, ".scala": true, ".ex": true, ".exs": true, ".zig": true, ".lua": true, ".sh": true}
	skipExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".svg": true, ".ico": true, ".pdf": true,
		".zip": true, ".gz": true, ".tar": true, ".jar": true, ".so": true, ".dll": true, ".exe": true, ".wasm": true, ".map": true,
		".lock": true, ".sum": true, ".woff": true, ".woff2": true, ".ttf": true, ".mp4": true, ".mp3": true, ".bin": true, ".db": true}
	lockFiles = map[string]bool{"package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true, "go.sum": true,
		"cargo.lock": true, "poetry.lock": true, "gemfile.lock": true, "composer.lock": true, "uv.lock": true}
)

// Score rates how much reading rel (of size bytes) tells about a project;
// ok is false for files never worth reading (binaries, lock files,
// minified or empty files).
func Score(rel string, size int64) (int, bool) {
	base := strings.ToLower(path.Base(rel))
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if size == 0 || skipExts[ext] || lockFiles[base] || strings.HasSuffix(base, ".min.js") || strings.HasSuffix(base, ".min.css") {
		return 0, false
	}
	sc := 0
	switch {
	case buildFiles[base]:
		sc += 40
	case keyNames[stem]:
		sc += 30
	}
	switch {
	case sourceExts[ext]:
		sc += 10
	case ext == ".md" || ext == ".yaml" || ext == ".yml" || ext == ".toml":
		sc += 3
	}
	// Mid-sized files explain the most; tiny ones say little, huge ones
	// cost the most to read.
	switch {
	case size < 200:
		sc -= 10
	case size <= 40<<10:
		sc += 10
	case size > 200<<10:
		sc -= 30
	}
	dirs := strings.Split(path.Dir(rel), "/")
	if dirs[0] != "." {
		sc -= 3 * len(dirs)
		for _, d := range dirs {
			if noiseDirs[strings.ToLower(d)] {
				sc -= 40
				break
			}
		}
	}
	if strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") || strings.HasPrefix(stem, "test_") {
		sc -= 20
	}
	if strings.HasPrefix(base, ".") {
		sc -= 10
	}
	return sc, true
}
