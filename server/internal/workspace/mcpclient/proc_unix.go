//go:build !windows

package mcpclient

import (
	"os/exec"
	"syscall"
)

// setGroup starts a stdio server in its own process group, so a terminal
// signal to the sidecar's group does not reach it first and a restart can
// stop it cleanly.
func setGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
