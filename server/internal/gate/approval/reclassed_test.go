package approval

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/osbox"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// The shell analysis stopped guessing what pagers, man, journalctl, git's
// configured programs and awk programs that only print could run: they
// are read-only now (shellcheck's interactive.go, git.go, fs.go). That may
// only mean "runs unasked in the read-only, offline sandbox": without a
// sandbox each still asks, and a headless run without one refuses.
func TestReclassedReadOnlyCommandsRunUnaskedOnlyInTheSandbox(t *testing.T) {
	ctx := context.Background()
	none := func() osbox.Status { return osbox.Status{Mechanism: osbox.None, Reason: "test"} }
	for _, cmd := range []string{"less notes.txt", "man ls", "git diff --ext-diff", "git log -p --textconv", "git -p log",
		"awk '{print $1}' notes.txt", "journalctl -u nginx", "systemctl status nginx"} {
		f := newFixture(t, nil, Options{})
		cwd := f.a.x.opts.Roots[0]
		d, err := f.a.ConfirmShell(ctx, tools.ShellProposal{Command: cmd, Cwd: cwd})
		if err != nil || !d.Allowed || len(f.host.asked) != 0 || d.Grant != (tools.SandboxGrant{}) || d.Auto == nil || d.Auto.By != tools.AutoByReadOnly {
			t.Errorf("%s with the sandbox: %+v %v, asked %d; want a read-only, offline run unasked", cmd, d, err, len(f.host.asked))
		}

		n := newFixture(t, nil, Options{Sandbox: none})
		n.host.answer = Answer{Accept: false}
		if d, _ := n.a.ConfirmShell(ctx, tools.ShellProposal{Command: cmd, Cwd: cwd}); d.Allowed || len(n.host.asked) != 1 {
			t.Errorf("%s without a sandbox ran unasked: %+v", cmd, d)
		}

		h := newFixture(t, nil, Options{Sandbox: none, Headless: true, Approve: "none"})
		if d, _ := h.a.ConfirmShell(ctx, tools.ShellProposal{Command: cmd, Cwd: cwd}); d.Allowed {
			t.Errorf("%s ran headless without a sandbox: %+v", cmd, d)
		}
	}
}
