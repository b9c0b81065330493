//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Self is this process's user+system CPU time, to the nanosecond on Linux.
func Self() time.Duration {
	return usage(syscall.RUSAGE_SELF)
}

// WithChildren is Self plus the CPU time of the child processes this one
// has waited for: a benchmark that runs rg counts rg's work too.
func WithChildren() time.Duration {
	return usage(syscall.RUSAGE_SELF) + usage(syscall.RUSAGE_CHILDREN)
}

func usage(who int) time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(who, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
