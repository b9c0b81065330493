package osbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// The kernel does not apply RLIMIT_NPROC to root (uid 0 of the initial
// user namespace), so for root, which CI and containers run as, the
// process limit is a pids cgroup instead: a fork bomb stops at
// pids.max, and everything in the group is killed when the command ends.
// Other users keep RLIMIT_NPROC (they cannot create cgroups without
// delegation, and the limit binds them).

var cgroupSeq atomic.Int64

// pidsBase is the folder under which a pids cgroup can be made, or "".
func pidsBase() string {
	if os.Geteuid() != 0 {
		return ""
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		if !strings.Contains(" "+string(b)+" ", " pids") {
			return ""
		}
		// cgroup v2: the root's children get the pids controller.
		_ = os.WriteFile("/sys/fs/cgroup/cgroup.subtree_control", []byte("+pids"), 0)
		return "/sys/fs/cgroup"
	}
	if fi, err := os.Stat("/sys/fs/cgroup/pids"); err == nil && fi.IsDir() {
		return "/sys/fs/cgroup/pids"
	}
	return ""
}

// newPidsCgroup makes a cgroup limited to max processes and returns its
// folder ("" when none can be made: the limit is then RLIMIT_NPROC only).
func newPidsCgroup(max int) string {
	base := pidsBase()
	if base == "" || max <= 0 {
		return ""
	}
	dir := filepath.Join(base, fmt.Sprintf("govibe-sandbox-%d-%d", os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return ""
	}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(max)), 0); err != nil {
		os.Remove(dir)
		return ""
	}
	return dir
}

// enterCgroup moves the calling process into dir (the helper's stage 0,
// before it execs the sandbox: every process of it then counts).
func enterCgroup(dir string) error {
	return os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0)
}

// removeCgroup kills what is left in dir and removes it.
func removeCgroup(dir string) {
	if dir == "" {
		return
	}
	_ = os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0) // v2
	for i := 0; i < 200; i++ {
		b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
		if err != nil {
			break
		}
		pids := strings.Fields(string(b))
		if len(pids) == 0 {
			break
		}
		for _, p := range pids {
			if n, err := strconv.Atoi(p); err == nil {
				_ = unix.Kill(n, unix.SIGKILL)
			}
		}
		time.Sleep(5 * time.Millisecond) // the kernel reaps them; nothing to wait on in v1
	}
	_ = os.Remove(dir)
}
