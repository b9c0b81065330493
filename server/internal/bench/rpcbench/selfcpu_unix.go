//go:build unix

package main

import (
	"syscall"
	"time"
)

// selfCPU is this process's user+system CPU time, to the nanosecond on
// Linux (the scripted model server and the client run here).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
