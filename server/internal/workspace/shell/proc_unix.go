//go:build !windows

package shell

import (
	"os/exec"
	"syscall"
)

// setGroup puts the command in a new process group so that a timeout can
// kill it together with every descendant.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the whole group. Errors (group already gone)
// are ignored on purpose.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
