// Package procstat reads a process's CPU time and resident memory from
// /proc, for the benchmarks that measure the sidecar from outside (its
// own figures, not the machine's, so they hold on a loaded machine).
package procstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of utime and stime in /proc/PID/stat (USER_HZ,
// 100 on every Linux the sidecar ships for).
const clockTick = 10 * time.Millisecond

// CPU returns the CPU time (user + system) process pid has used, and
// false where /proc is not available.
func CPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	return parseStat(string(b))
}

// parseStat reads utime and stime from a /proc/PID/stat line. The command
// name may hold spaces and parentheses; the fields start after its last ')'.
func parseStat(s string) (time.Duration, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 > len(s) {
		return 0, false
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(u+st) * clockTick, true
}

// RSS returns the resident set size of process pid (VmRSS), in bytes.
func RSS(pid int) (int64, error) { return status(pid, "VmRSS") }

// HWM returns the peak resident set size of process pid (VmHWM), in bytes:
// since it started, or since "5" was last written to its clear_refs.
func HWM(pid int) (int64, error) { return status(pid, "VmHWM") }

// status reads one "Vm…:" field of /proc/PID/status, in bytes.
func status(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			f := strings.Fields(v)
			if len(f) == 2 && f[1] == "kB" {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				return kb << 10, err
			}
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}
