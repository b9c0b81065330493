//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is this process's user+system CPU time. A search of the listing
// runs in the calling goroutine, so the difference across one is its CPU
// cost; unlike wall time it barely depends on how many other processes
// share the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
