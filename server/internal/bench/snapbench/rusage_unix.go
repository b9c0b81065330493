//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTimes returns the user+system CPU time of this process and of its
// waited-for children (the git commands). CPU time, unlike wall time,
// barely depends on how busy the machine is.
func cpuTimes() (self, children time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) == nil {
		children = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return self, children
}
