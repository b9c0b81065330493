package modes

import (
	"strings"
	"testing"
)

// The files that decide which tests run, or how they pass, are the
// tests': the coder may not write them, the specifier may.
func TestCheckWriteTestConfigPaths(t *testing.T) {
	for _, c := range []struct {
		path             string
		coder, specifier bool // allowed?
	}{
		{"vitest.config.ts", false, true},
		{"web/vitest.config.mts", false, true},
		{"vitest.workspace.ts", false, true},
		{"jest.config.js", false, true},
		{"jest.setup.ts", false, true},
		{".mocharc.yml", false, true},
		{".mocharc.json", false, true},
		{"karma.conf.js", false, true},
		{"playwright.config.ts", false, true},
		{"src/setupTests.ts", false, true},
		{"pytest.ini", false, true},
		{"tox.ini", false, true},
		{"conftest.py", false, true},
		{"src/__snapshots__/game.test.ts.snap", false, true},
		{"src/game.snap", false, true},
		{"src/__mocks__/api.ts", false, true},
		{"fixtures/board.json", false, true},
		// shared files pass the path rule: CheckSharedEdit judges the edit
		{"package.json", true, true},
		{"vite.config.ts", true, true},
		{"pyproject.toml", true, true},
		{"setup.cfg", true, true},
		{"Makefile", true, true},
		// a shared file's name inside a test folder is a test's
		{"tests/package.json", false, true},
		// code stays the coder's
		{"src/vitest.ts", true, false},
		{"src/config.ts", true, false},
		{"src/jest.ts", true, false},
		{"tsconfig.json", true, false},
	} {
		if err := CheckWrite(Coder, c.path); (err == nil) != c.coder {
			t.Errorf("coder writing %s: %v, want allowed=%v", c.path, err, c.coder)
		}
		if err := CheckWrite(Specifier, c.path); (err == nil) != c.specifier {
			t.Errorf("specifier writing %s: %v, want allowed=%v", c.path, err, c.specifier)
		}
	}
}

// A shared config file is judged by the edit: the coder may change
// anything but its test part; the specifier owns the tests and may write
// it whole.
func TestCheckSharedEdit(t *testing.T) {
	const pkg = `{"name":"snake","scripts":{"build":"vite build","test":"vitest run"},"dependencies":{"react":"18.3.1"}}`
	const vite = "export default defineConfig({\n  plugins: [react()],\n  test: { environment: 'jsdom', include: ['src/**/*.test.ts'] },\n})\n"
	const pyproject = "[project]\nname = \"x\"\ndependencies = []\n\n[tool.pytest.ini_options]\naddopts = \"-q\"\n"
	const mk = "build:\n\tgo build ./...\n\ntest:\n\tgo test ./...\n"
	for _, c := range []struct {
		path, before, after string
		coder               bool // allowed for the coder?
	}{
		{"package.json", pkg, strings.Replace(pkg, `"react":"18.3.1"`, `"react":"18.3.1","zustand":"4.5.2"`, 1), true},
		{"package.json", pkg, strings.Replace(pkg, `"build":"vite build"`, `"build":"tsc && vite build"`, 1), true},
		{"package.json", pkg, "{\n  \"name\": \"snake\",\n  \"scripts\": {\"test\": \"vitest run\", \"build\": \"vite build\"},\n  \"dependencies\": {\"react\": \"18.3.1\"}\n}\n", true}, // reformatted
		{"package.json", pkg, strings.Replace(pkg, `"vitest run"`, `"vitest run --exclude src/game.test.ts"`, 1), false},
		{"package.json", pkg, strings.Replace(pkg, `"vitest run"`, `"echo 0 passed, 0 failed"`, 1), false},
		{"package.json", pkg, strings.Replace(pkg, `"build"`, `"test:unit":"true","build"`, 1), false},
		{"package.json", pkg, strings.Replace(pkg, `"name":"snake",`, `"name":"snake","vitest":{"exclude":["src/**"]},`, 1), false},
		{"package.json", pkg, strings.Replace(pkg, `"name":"snake",`, `"name":"snake","jest":{"testPathIgnorePatterns":["game"]},`, 1), false},
		{"package.json", pkg, `{"name":"snake"}`, false}, // the test script dropped
		{"package.json", pkg, "", false},         // deleted
		{"package.json", pkg, `{"name":`, false}, // unparsable: cannot be told
		{"package.json", "", `{"name":"x","dependencies":{}}`, true},
		{"vite.config.ts", vite, strings.Replace(vite, "react()", "react(), svgr()", 1), true},
		{"vite.config.ts", vite, strings.Replace(vite, "include: ['src/**/*.test.ts']", "include: []", 1), false},
		{"vite.config.ts", vite, strings.Replace(vite, "jsdom", "node', passWithNoTests: true, x: '", 1), false},
		{"vite.config.ts", "export default defineConfig({ plugins: [react()] })\n", "export default defineConfig({ plugins: [react()], test: { include: [] } })\n", false},
		{"pyproject.toml", pyproject, strings.Replace(pyproject, "dependencies = []", "dependencies = [\"numpy\"]", 1), true},
		{"pyproject.toml", pyproject, strings.Replace(pyproject, "-q", "-q -k 'not slow'", 1), false},
		{"setup.cfg", "[metadata]\nname = x\n", "[metadata]\nname = x\n\n[tool:pytest]\ntestpaths = nothing\n", false},
		{"Makefile", mk, strings.Replace(mk, "go build", "go build -v", 1), true},
		{"Makefile", mk, strings.Replace(mk, "go test ./...", "true", 1), false},
	} {
		err := CheckSharedEdit(Coder, c.path, []byte(c.before), []byte(c.after))
		if (err == nil) != c.coder {
			t.Errorf("coder: %s %q -> %q: %v, want allowed=%v", c.path, c.before, c.after, err, c.coder)
		}
		if err != nil && !strings.Contains(err.Error(), "undone") {
			t.Errorf("the refusal must say the write was undone: %v", err)
		}
		if err := CheckSharedEdit(Specifier, c.path, []byte(c.before), []byte(c.after)); err != nil {
			t.Errorf("specifier: %s: %v", c.path, err)
		}
	}
}
