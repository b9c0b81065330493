package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

const greetManifest = `{"metadata":{"name":"greet","version":"1.0.0"},
"spec":{"intent":"Hello returns hello","constraints":{"language":"Go","testing":["go test"]},
"functionalSpec":{"behaviors":["Hello() returns \"hello\""]},"testCommand":"go test -json ./..."},
"status":{"phase":"Pending","currentLoop":0}}`

const greetTest = "package greet\n\nimport \"testing\"\n\nfunc TestHello(t *testing.T) {\n\tif Hello() != \"hello\" {\n\t\tt.Fatal(Hello())\n\t}\n}\n"

// govibe exec --mode reconcile --approve all: the message drafts the
// manifest (a protected file: only --approve all writes it headless),
// --approve all approves it, and the loop runs in the same process: the
// specifier's test fails when run (the auditor ran go test -json before
// and after it, with no model call), its write outside the tests is
// refused, the coder's attempts at the test (write tool, sed -i, mv, rm)
// are refused, its fix makes the diff 0, and the run is Ready, its status
// in the manifest file. The next process resuming the session without
// --mode is still in Reconcile: its message drafts again.
func TestExecModeReconcileRunsHeadless(t *testing.T) {
	ws := gitRepo(t, map[string]string{"go.mod": "module greet\n\ngo 1.22\n", "greet.go": "package greet\n\nfunc Hello() string { return \"\" }\n"})
	call := func(id, name, args string) scripted.Reply {
		return scripted.Reply{ToolCalls: []scripted.ToolCall{tc(id, name, args)}}
	}
	arg := func(v map[string]any) string { b, _ := json.Marshal(v); return string(b) }
	model := scripted.Start(t,
		call("m1", "write_file", arg(map[string]any{"filePath": ".govibe/manifests/greet.json", "content": greetManifest})),
		scripted.Reply{Text: "Drafted: approve it to start."},
		call("s1", "write_file", arg(map[string]any{"filePath": "greet_test.go", "content": greetTest})),
		call("s2", "write_file", arg(map[string]any{"filePath": "greet.go", "content": "package greet\n"})), // not a test: refused
		scripted.Reply{Text: "The test is written."},
		call("c1", "read_file", `{"filePath":"greet.go"}`),
		call("c2", "run_shell_command", `{"command":"sed -i s/hello/x/ greet_test.go"}`),
		call("c3", "run_shell_command", `{"command":"mv greet_test.go old.txt"}`),
		call("c4", "run_shell_command", `{"command":"rm greet_test.go"}`),
		call("c5", "write_file", arg(map[string]any{"filePath": "greet_test.go", "content": "package greet\n"})),
		call("c6", "write_file", arg(map[string]any{"filePath": "greet.go", "content": "package greet\n\nfunc Hello() string { return \"hello\" }\n"})),
		scripted.Reply{Text: "Fixed."},
	)
	state := t.TempDir()
	env := append([]string{"HOME=" + t.TempDir(), "GOFLAGS=-mod=mod"}, goCaches(t)...)
	common := []string{"--workspace", ws, "--state-dir", state, "--base-url", model.URL(), "--model", "m", "--output", "stream-json", "--approve", "all"}
	out, errOut, code := runExec(t, env, append(common, "--mode", "reconcile", "a greeter whose Hello returns hello")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	reqs := model.Requests()
	if first := reqs[0].Messages[len(reqs[0].Messages)-1].Content; !strings.Contains(first, "Vibe Manifest") {
		t.Fatalf("a message in Reconcile mode was not a drafting turn: %q", first)
	}
	if len(reqs) != 12 || model.Pending() != 0 {
		t.Fatalf("%d model calls, want 12 (the auditor calls none)\n%s", len(reqs), out)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "greet_test.go")); string(b) != greetTest {
		t.Fatalf("the test was changed: %q", b)
	}
	for _, refused := range []string{"may only write test files", "may only run read-only commands", "may not change tests"} {
		if !strings.Contains(out, refused) {
			t.Errorf("no %q refusal in\n%s", refused, out)
		}
	}
	var m struct {
		Metadata struct{ Approved bool }
		Status   struct {
			Phase       string
			CurrentLoop int
			Diff        int
		}
	}
	b, _ := os.ReadFile(filepath.Join(ws, ".govibe", "manifests", "greet.json"))
	if err := json.Unmarshal(b, &m); err != nil || !m.Metadata.Approved || m.Status.Phase != "Ready" || m.Status.CurrentLoop != 1 || m.Status.Diff != 0 {
		t.Fatalf("manifest %s (%v)\n%s", b, err, out)
	}
	model.Enqueue(scripted.Reply{Text: "What should the second greeter do?"})
	if out, errOut, code = runExec(t, env, append(common, "--session", sessionOf(t, out), "a second greeter")...); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	last := model.Requests()[len(model.Requests())-1]
	if got := last.Messages[len(last.Messages)-1].Content; !strings.Contains(got, "Vibe Manifest") {
		t.Fatalf("the session lost Reconcile mode across processes: %q", got)
	}
}
