//go:build windows

package mcpclient

import "os/exec"

func setGroup(cmd *exec.Cmd) {}
