//go:build linux

package watchdog

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// startMeter locks the step's goroutine to its OS thread and meters that
// thread's CPU clock, which the watchdog reads from its own thread (Linux
// lets any thread of a process read another's). It returns the unlock.
func startMeter(w *watch) (stop func()) {
	runtime.LockOSThread()
	clock := threadClock(unix.Gettid())
	base := readClock(clock)
	w.mu.Lock()
	w.meter = func() time.Duration { return readClock(clock) - base }
	w.mu.Unlock()
	return runtime.UnlockOSThread
}

// threadClock is the clockid of thread tid's CPU time (the kernel's
// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED), what pthread_getcpuclockid
// returns).
func threadClock(tid int) int32 { return int32(^uint32(tid)<<3 | 4 | 2) }

func readClock(clock int32) time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(clock, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
