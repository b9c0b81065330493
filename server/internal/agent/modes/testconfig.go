package modes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// testConfigPrefixes name the files whose whole content configures the
// test run (which tests run, how they pass): a coder that could write
// them could bring the diff to 0 by excluding the failing tests, so they
// belong to the tests. Matched on the base name, before its extensions.
var testConfigPrefixes = []string{
	"vitest.config.", "vitest.workspace.", "vitest.setup.", "jest.config.", "jest.setup.",
	".mocharc", "karma.conf", "playwright.config.", "cypress.config.", "setupTests.",
}

// testConfigNames are whole files that configure pytest or tox.
var testConfigNames = map[string]bool{"pytest.ini": true, "tox.ini": true, "noxfile.py": true, "conftest.py": true}

// IsTestConfigPath says whether p is a file that configures the test run
// as a whole (vitest.config.ts, jest.config.js, .mocharc.yml, pytest.ini…).
func IsTestConfigPath(p string) bool {
	base := path.Base(path.Clean(strings.ReplaceAll(p, "\\", "/")))
	if testConfigNames[base] {
		return true
	}
	for _, pre := range testConfigPrefixes {
		if strings.HasPrefix(base, pre) {
			return true
		}
	}
	return false
}

// IsSharedConfigPath says whether p is a file the code and the tests
// share: package.json (dependencies and the test scripts), vite.config.*
// (the build and its `test` block), pyproject.toml and setup.cfg (the
// project and its pytest section), a Makefile (the build and its test
// targets). Such a file is judged by the edit, not by its path: see
// TestPart.
func IsSharedConfigPath(p string) bool {
	base := path.Base(path.Clean(strings.ReplaceAll(p, "\\", "/")))
	switch base {
	case "package.json", "pyproject.toml", "setup.cfg", "Makefile", "makefile", "GNUmakefile":
		return true
	}
	return strings.HasPrefix(base, "vite.config.")
}

// packageTestKeys are package.json's top-level keys that configure a test
// runner; scripts whose name starts with "test" (or is pretest/posttest)
// are the test commands.
var packageTestKeys = []string{"jest", "vitest", "mocha", "ava", "c8", "nyc"}

// TestPart is the test-run part of a shared config file's content, in a
// form that compares equal exactly when that part is unchanged: the test
// keys of package.json, the `test` block of vite.config.*, the pytest
// sections of pyproject.toml and setup.cfg, the test targets of a
// Makefile. A missing file (nil content) has an empty part. A package.json
// that does not parse is an error: whether it changes the test scripts
// cannot be told.
func TestPart(p string, content []byte) (string, error) {
	base := path.Base(path.Clean(strings.ReplaceAll(p, "\\", "/")))
	switch {
	case base == "package.json":
		return packageTestPart(content)
	case strings.HasPrefix(base, "vite.config."):
		return viteTestBlock(string(content)), nil
	case base == "pyproject.toml":
		return iniSections(string(content), "[tool.pytest"), nil
	case base == "setup.cfg":
		return iniSections(string(content), "[tool:pytest", "[pytest"), nil
	default: // Makefile
		return makeTestTargets(string(content)), nil
	}
}

func packageTestPart(content []byte) (string, error) {
	if len(bytes.TrimSpace(content)) == 0 {
		return "", nil
	}
	var pkg map[string]json.RawMessage
	if err := json.Unmarshal(content, &pkg); err != nil {
		return "", fmt.Errorf("package.json is not valid JSON (%v)", err)
	}
	part := map[string]any{}
	for _, k := range packageTestKeys {
		if v, ok := pkg[k]; ok {
			var x any
			_ = json.Unmarshal(v, &x)
			part[k] = x
		}
	}
	var scripts map[string]any
	_ = json.Unmarshal(pkg["scripts"], &scripts)
	for name, v := range scripts {
		if strings.HasPrefix(name, "test") || name == "pretest" || name == "posttest" {
			part["scripts."+name] = v
		}
	}
	if len(part) == 0 {
		return "", nil // as a missing file
	}
	b, _ := json.Marshal(part) // map keys are sorted: equal parts marshal equal
	return string(b), nil
}

var viteTestKey = regexp.MustCompile(`(^|[\s,{])["']?test["']?\s*:`)

// viteTestBlock is the text of the `test:` value in a vite config (to its
// matching bracket), with spaces dropped; "" when there is none.
func viteTestBlock(src string) string {
	loc := viteTestKey.FindStringIndex(src)
	if loc == nil {
		return ""
	}
	rest := src[loc[1]:]
	depth, end := 0, len(rest)
	for i, r := range rest {
		switch r {
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			depth--
			if depth <= 0 {
				end = i + 1
			}
		case ',':
			if depth == 0 {
				end = i
			}
		}
		if end != len(rest) {
			break
		}
	}
	return strings.Join(strings.Fields(rest[:end]), "")
}

// iniSections is the text of the sections whose header starts with one
// of prefixes (TOML tables and INI sections alike), to the next header.
func iniSections(src string, prefixes ...string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			in = false
			for _, pre := range prefixes {
				in = in || strings.HasPrefix(t, pre)
			}
		}
		if in && t != "" {
			b.WriteString(t + "\n")
		}
	}
	return b.String()
}

// makeTestTargets is the text of the Makefile rules whose target starts
// with "test" (their recipe lines included), and of .PHONY-free variable
// lines naming TEST: what `make test` runs.
func makeTestTargets(src string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(src, "\n") {
		switch {
		case strings.HasPrefix(line, "\t"):
		case strings.HasPrefix(line, "test") && strings.Contains(line, ":"):
			in = true
		default:
			in = false
			if strings.Contains(strings.ToUpper(strings.SplitN(line, "=", 2)[0]), "TEST") && strings.Contains(line, "=") {
				b.WriteString(strings.TrimSpace(line) + "\n")
			}
		}
		if in {
			b.WriteString(strings.TrimRight(line, " \t") + "\n")
		}
	}
	return b.String()
}

// CheckSharedEdit is the coder's rule on a shared config file (see
// IsSharedConfigPath), judged by the edit: it may change the file (add a
// dependency, a build option) but not its test part. The specifier owns
// the tests and may write these files whole: it may need the test runner
// as a dependency.
func CheckSharedEdit(s Step, p string, before, after []byte) error {
	if s != Coder {
		return nil
	}
	was, err := TestPart(p, before)
	if err != nil {
		return fmt.Errorf("the write to %s was undone: before it, %v, so whether it changes the test configuration cannot be told", p, err)
	}
	now, err := TestPart(p, after)
	if err != nil {
		return fmt.Errorf("the write to %s was undone: %v", p, err)
	}
	if was != now {
		return fmt.Errorf("the coder may not change how the tests run; the write to %s changed its test configuration (test scripts, test runner options, test targets) and was undone", p)
	}
	return nil
}
