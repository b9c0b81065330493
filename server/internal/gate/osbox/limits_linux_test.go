package osbox

import (
	"os"
	"strings"
	"testing"
)

// TestProcessLimitHolds: a command that forks without end stops at the
// limit. The forking is bounded here (2,000 children at most, each
// sleeping) so that a broken limit fails the test instead of the machine.
// For root the limit is a pids cgroup (RLIMIT_NPROC does not bind root);
// for other users RLIMIT_NPROC.
func TestProcessLimitHolds(t *testing.T) {
	if os.Geteuid() == 0 && pidsBase() == "" {
		t.Skip("root without a pids cgroup controller: no process limit can bind here")
	}
	script := `python3 -c "
import os, sys, time
n = 0
try:
    for i in range(2000):
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        n += 1
    print('started', n)
except OSError as e:
    print('refused after', n, e.errno)
"`
	for _, m := range mechanisms(t) {
		t.Run(string(m), func(t *testing.T) {
			f := newFixture(t)
			p := f.policy(ReadOnly)
			p.MaxProcesses = 64
			out, _ := run(t, m, p, f.root, script)
			if !strings.Contains(out, "refused after") {
				t.Fatalf("2,000 processes started under a limit of 64: %q", out)
			}
		})
	}
}
