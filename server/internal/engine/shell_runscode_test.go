package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/approval"

	"github.com/govibe/govibe/server/internal/host/config"
)

// Read-only commands are auto-approved by default; a command that runs
// code through the environment (LESSOPEN) or runs the project's code is
// not: the user is asked, with the class and its reason, and saying no
// means it never ran.
func TestRunsCodeAsksWhereReadOnlyIsAutoApproved(t *testing.T) {
	// Without the sandbox's auto-approval the analysis alone decides.
	x := newRV(t, config.Values{"sandbox.autoApprove": false}, false, "")
	x.write("notes.txt", "hi\n")
	x.mainScript(shellCall("s1", "ls notes.txt"), shellCall("s2", "LESSOPEN='|touch pwn %s' less notes.txt"), shellCall("s3", "cat /etc/hostname"))
	sid := x.send("look")
	c := x.confirm()
	if c.Analysis == nil || c.Analysis.Class != "runs-code" || !strings.Contains(strings.Join(c.Analysis.Reasons, ";"), "LESSOPEN") {
		t.Fatalf("confirmation %+v", c.Analysis)
	}
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: false, Reason: "no"})
	c = x.confirm()
	if c.Analysis == nil || c.Analysis.Class != "reads-outside" {
		t.Fatalf("read outside the workspace: %+v", c.Analysis)
	}
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: false, Reason: "no"})
	x.finish(sid)
	res := x.toolResults()
	if len(res) != 3 || !strings.Contains(res[0], "notes.txt") {
		t.Fatalf("the read-only command did not run unasked: %q", res)
	}
	if _, err := os.Stat(filepath.Join(x.dir, "pwn")); err == nil {
		t.Fatal("the LESSOPEN command ran after the user said no")
	}
}

// A user allow rule permits a runs-code command without asking.
func TestAllowRulePermitsRunsCode(t *testing.T) {
	x := newRV(t, config.Values{"permissions.allow": []any{"Bash(./run.sh)"}}, false, "")
	x.write("run.sh", "#!/bin/sh\ntouch ran\n")
	if err := os.Chmod(filepath.Join(x.dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	x.mainScript(shellCall("s1", "./run.sh"))
	x.finish(x.send("run it"))
	x.noConfirm()
	if _, err := os.Stat(filepath.Join(x.dir, "ran")); err != nil {
		t.Fatalf("the allowed command did not run: %q", x.toolResults())
	}
}

// With the sandbox (the default), code the analysis cannot see runs
// unasked, read-only and offline: its write fails, the model is told what
// the sandbox denied, and the person is asked whether to run it again
// with write access; saying no leaves the workspace untouched.
func TestSandboxRunsCodeReadOnlyAndAsksToWiden(t *testing.T) {
	requireSandbox(t)
	x := newRV(t, nil, false, "")
	x.mainScript(shellCall("s1", `python3 -c "open('pwn','w').write('x')"`))
	sid := x.send("run it")
	c := x.confirm()
	if c.Analysis == nil || c.Analysis.Class != "sandbox-denied" || !strings.Contains(strings.Join(c.Analysis.Reasons, ";"), "Run again with write access (denied: writing pwn)") {
		t.Fatalf("the widening card: %+v", c.Analysis)
	}
	x.e.Broker.Resolve(c.ID, approval.Answer{Accept: false, Reason: "no"})
	x.finish(sid)
	res := x.toolResults()
	if len(res) != 1 || !strings.Contains(res[0], "sandbox: read-only; no network") || !strings.Contains(res[0], "The OS sandbox denied this command: writing pwn") {
		t.Fatalf("tool result %q", res)
	}
	if _, err := os.Stat(filepath.Join(x.dir, "pwn")); err == nil {
		t.Fatal("the write happened")
	}
}
