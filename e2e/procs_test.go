package e2e

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// markEnv is set, with a value unique to one started process tree, in the
// environment of every process the suite starts. Descendants inherit it even
// when they leave the process group (node-pty and some daemons call setsid),
// so scanning /proc for it finds every leftover, not only the group members.
const markEnv = "GOVIBE_E2E_MARK"

func newMark() string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return "e2e-" + hex.EncodeToString(b)
}

// startGroup starts cmd as the leader of a new process group, tagged with mark.
func startGroup(cmd *exec.Cmd, mark string) error {
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, markEnv+"="+mark)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd.Start()
}

// liveProcesses walks /proc once and lists the live (non-zombie)
// processes other than this one for which keep holds: the one walker
// behind the searches by mark and by process group.
func liveProcesses(keep func(pid int) bool) []procInfo {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var found []procInfo
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || !keep(pid) {
			continue
		}
		if info := readProc(pid); info.state != "Z" {
			found = append(found, info)
		}
	}
	return found
}

// markedProcesses lists live (non-zombie) processes whose environment carries mark.
func markedProcesses(mark string) []procInfo {
	needle := []byte(markEnv + "=" + mark + "\x00")
	return liveProcesses(func(pid int) bool {
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		return err == nil && bytes.Contains(env, needle)
	})
}

// groupProcesses lists live (non-zombie) processes in process group pgid.
func groupProcesses(pgid int) []procInfo {
	if pgid <= 0 {
		return nil
	}
	return liveProcesses(func(pid int) bool { return pgidOf(pid) == pgid })
}

type procInfo struct {
	pid     int
	state   string
	cmdline string
}

func (p procInfo) String() string { return fmt.Sprintf("pid %d [%s] %s", p.pid, p.state, p.cmdline) }

func readProc(pid int) procInfo {
	info := procInfo{pid: pid}
	if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		// The command name in field 2 may contain spaces; the state follows its closing paren.
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
			info.state = string(stat[i+2])
		}
	}
	if cl, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil {
		info.cmdline = strings.TrimSpace(strings.ReplaceAll(string(cl), "\x00", " "))
		if len(info.cmdline) > 200 {
			info.cmdline = info.cmdline[:200] + "…"
		}
	}
	return info
}

// cpuTime is the user+system CPU time a process has used so far, for
// diagnostics ("?" when it cannot be read).
func cpuTime(pid int) string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "?"
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return "?"
	}
	// After the command: state(3) ppid pgrp session tty tpgid flags minflt
	// cminflt majflt cmajflt utime(14) stime(15), in clock ticks (100/s).
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return "?"
	}
	u, err1 := strconv.Atoi(f[11])
	s, err2 := strconv.Atoi(f[12])
	if err1 != nil || err2 != nil {
		return "?"
	}
	return (time.Duration(u+s) * 10 * time.Millisecond).String()
}

// stopGroup ends the process tree started by cmd. It first gives detached
// helpers up to settle to finish by themselves, then sends SIGTERM to the group so
// code-server can stop its extension host (and with it the GoVibe sidecar)
// cleanly, then SIGKILL to the group once grace runs out. Whatever carries the
// mark after that has left the group (setsid, double fork) and would outlive
// the test: those are killed one by one and returned so the caller fails the
// test, because a product that leaks processes is a bug even though the
// harness cleans up after it.
func stopGroup(cmd *exec.Cmd, mark string, settle, grace time.Duration) (escaped []procInfo) {
	if cmd.Process == nil {
		return nil
	}
	pgid := cmd.Process.Pid
	// VS Code starts short-lived detached helpers (its login-shell environment
	// probe runs in its own session, with a 10s timeout); let those finish
	// rather than report them. Anything detached that is still there after
	// this is a real leak and is reported below.
	waitUntil(settle, func() bool {
		for _, p := range markedProcesses(mark) {
			if pgidOf(p.pid) != pgid {
				return false
			}
		}
		return true
	})
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	waited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(waited)
	}()
	waitUntil(grace, func() bool { return len(groupProcesses(pgid)) == 0 })
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-waited
	waitUntil(5*time.Second, func() bool { return len(groupProcesses(pgid)) == 0 })
	escaped = markedProcesses(mark)
	for _, p := range escaped {
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
	waitUntil(5*time.Second, func() bool { return len(markedProcesses(mark)) == 0 })
	return escaped
}

// settleTimeout bounds the wait for detached helpers; VS Code's shell
// environment probe gives up after 10s.
const settleTimeout = 12 * time.Second

// pgidOf returns the process group of a live process, or -1 for a zombie or
// a process that is gone.
func pgidOf(pid int) int {
	f := statFields(pid)
	if len(f) < 3 || f[0] == "Z" {
		return -1
	}
	return atoiOr(f[2], -1)
}

// ppidOf returns a process's parent, or -1 when it is gone.
func ppidOf(pid int) int {
	if f := statFields(pid); len(f) >= 2 {
		return atoiOr(f[1], -1)
	}
	return -1
}

// statFields are the fields of /proc/<pid>/stat after the command name
// (state ppid pgrp ...), nil when the process is gone. The name is skipped
// by its last ')', since it may itself hold spaces and parentheses.
func statFields(pid int) []string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(stat[i+1:]))
}

func atoiOr(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

// waitUntil polls cond until it holds or d passes; /proc offers no event for
// "process gone", so polling is the only way to wait on it.
func waitUntil(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}
