package moderun

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// stepTool is the step's guarded copy of the built-in tool named name.
func stepTool(t *testing.T, step modes.Step, name, root string) tools.Tool {
	t.Helper()
	ts, _ := StepTools(step, tools.Builtin(), []string{root})
	for _, tl := range ts {
		if tl.Name() == name {
			return tl
		}
	}
	t.Fatalf("no %s tool", name)
	return nil
}

// A write to package.json is judged by what it changes, with the real
// write tools on a real file: the coder's dependency lands, its change to
// the test script is refused and undone (the file keeps its bytes), and so
// is deleting the file; the specifier may change the test script.
func TestStepToolsSharedConfigEdits(t *testing.T) {
	const pkg = `{"name":"snake","scripts":{"test":"vitest run"},"dependencies":{"react":"18.3.1"}}`
	for _, c := range []struct {
		step    modes.Step
		tool    string
		content string
		ok      bool
	}{
		{modes.Coder, "write_file", `{"name":"snake","scripts":{"test":"vitest run"},"dependencies":{"react":"18.3.1","zustand":"4.5.2"}}`, true},
		{modes.Coder, "write_file", `{"name":"snake","scripts":{"test":"vitest run --exclude src"},"dependencies":{"react":"18.3.1"}}`, false},
		{modes.Coder, "write_file", `{"name":"snake","scripts":{"test":"vitest run"},"vitest":{"exclude":["**"]}}`, false},
		{modes.Coder, "delete_file", "", false},
		{modes.Specifier, "write_file", `{"name":"snake","scripts":{"test":"vitest run --reporter=json"},"dependencies":{"react":"18.3.1"}}`, true},
	} {
		root := t.TempDir()
		file := filepath.Join(root, "package.json")
		if err := os.WriteFile(file, []byte(pkg), 0o644); err != nil {
			t.Fatal(err)
		}
		env := &tools.Env{Roots: []string{root}, Files: tools.NewFileTracker(), Settings: tools.Settings{EditEnabled: true}, TurnID: "t1"}
		ctx := context.Background()
		read := stepTool(t, c.step, "read_file", root)
		if res, err := read.Run(ctx, env, json.RawMessage(`{"filePath":"package.json"}`)); err != nil || !res.OK {
			t.Fatalf("read: %+v %v", res, err)
		}
		args, _ := json.Marshal(map[string]string{"filePath": "package.json", "content": c.content})
		res, err := stepTool(t, c.step, c.tool, root).Run(ctx, env, args)
		if err != nil || res.OK != c.ok {
			t.Errorf("%s %s %s: %+v %v", c.step, c.tool, c.content, res, err)
			continue
		}
		got, _ := os.ReadFile(file)
		switch {
		case !c.ok && (string(got) != pkg || !strings.Contains(res.Output, "undone")):
			t.Errorf("%s %s: refused, but the file is %q (%q)", c.step, c.tool, got, res.Output)
		case c.ok && string(got) != c.content:
			t.Errorf("%s %s: allowed, but the file is %q", c.step, c.tool, got)
		}
	}
}

// The reconcile agents' shell only checks: a command that would write a
// test-run config (sed -i, a redirect, npm pkg set, a snapshot update) is
// refused before it runs, as writes to tests are.
func TestStepShellRefusesTestConfigWrites(t *testing.T) {
	root := t.TempDir()
	cfg := "export default { test: { include: ['src/**/*.test.ts'] } }\n"
	if err := os.WriteFile(filepath.Join(root, "vitest.config.ts"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	env := &tools.Env{Roots: []string{root}, Files: tools.NewFileTracker(), TurnID: "t1"}
	for _, cmd := range []string{
		`sed -i 's/src/nothing/' vitest.config.ts`,
		`echo 'module.exports = {testPathIgnorePatterns: ["."]}' > jest.config.js`,
		`mv vitest.config.ts old.ts`,
		`npm pkg set scripts.test=true`,
		`npx vitest run -u`,
		`npx jest --updateSnapshot`,
	} {
		args, _ := json.Marshal(map[string]string{"command": cmd})
		res, err := stepTool(t, modes.Coder, modes.ToolShell, root).Run(context.Background(), env, args)
		if err != nil || res.OK || !strings.Contains(res.Output, "the coder may only run") {
			t.Errorf("%s: %+v %v", cmd, res, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "vitest.config.ts")); string(b) != cfg {
		t.Errorf("the config changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(root, "jest.config.js")); err == nil {
		t.Error("jest.config.js was written")
	}
}
