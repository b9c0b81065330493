package moderun_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// A coder that tries to bring the diff to 0 by excluding the failing test
// (through vitest.config.ts, then package.json's test script) is refused
// and its package.json write undone, while its dependency addition to
// package.json lands; the loop still has to be won by fixing the code.
func TestReconcileCoderMayNotReconfigureTheTests(t *testing.T) {
	const pkg = `{"name":"greeter","scripts":{"test":"sh run_tests.sh"},"dependencies":{}}`
	const vitestCfg = "export default { test: { include: ['tests/**'] } }\n"
	const withDep = `{"name":"greeter","scripts":{"test":"sh run_tests.sh"},"dependencies":{"left-pad":"1.3.0"}}`
	s := &enginetest.Script{Main: []scripted.Reply{
		calls(call("s1", "write_file", map[string]any{"filePath": "tests/world.want", "content": "world"})),
		text("tests written"),
		// coder: cheat through the test run's configuration
		calls(call("c1", "write_file", map[string]any{"filePath": "vitest.config.ts", "content": "export default { test: { exclude: ['tests/world*'] } }\n"})),
		calls(call("c2", "read_file", map[string]any{"filePath": "package.json"})),
		calls(call("c3", "write_file", map[string]any{"filePath": "package.json", "content": `{"name":"greeter","scripts":{"test":"echo 1 passed, 0 failed"},"dependencies":{}}`})),
		calls(call("c4", "run_shell_command", map[string]any{"command": "sed -i s/tests/none/ vitest.config.ts"})),
		// then do the work: a dependency, and the code
		calls(call("c4b", "read_file", map[string]any{"filePath": "package.json"})),
		calls(call("c5", "write_file", map[string]any{"filePath": "package.json", "content": withDep})),
		calls(call("c6", "read_file", map[string]any{"filePath": "app.txt"})),
		calls(call("c7", "write_file", map[string]any{"filePath": "app.txt", "content": "hello\nworld\n"})),
		text("implemented"),
	}}
	x, sid := reconcileEnv(t, s, config.Values{})
	x.WriteFile("package.json", pkg)
	x.WriteFile("vitest.config.ts", vitestCfg)
	v := approve(x, sid)
	res := x.Published(sid)
	if v.Run.Manifest.Status.Phase != modes.PhaseReady || fmt.Sprint(v.Run.Diffs) != "[0]" {
		t.Fatalf("run %+v\nresults %v", v.Run, res)
	}
	if !strings.Contains(res["c1"], "may not change tests") {
		t.Errorf("the coder writing vitest.config.ts: %q", res["c1"])
	}
	if !strings.Contains(res["c3"], "may not change how the tests run") || !strings.Contains(res["c3"], "undone") ||
		!strings.Contains(res["c3"], "read it again") {
		t.Errorf("the coder changing the test script: %q", res["c3"])
	}
	if !strings.Contains(res["c4"], "refused") {
		t.Errorf("the coder's sed -i on the config: %q", res["c4"])
	}
	if strings.Contains(res["c5"], "may not") {
		t.Errorf("the coder's dependency was refused: %q", res["c5"])
	}
	for file, want := range map[string]string{"vitest.config.ts": vitestCfg, "package.json": withDep} {
		if b, _ := os.ReadFile(filepath.Join(x.Dir, file)); string(b) != want {
			t.Errorf("%s is %q, want %q", file, b, want)
		}
	}
}
