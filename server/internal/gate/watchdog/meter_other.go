//go:build !linux

package watchdog

import "time"

// startMeter meters the process's CPU time from the step's start: there is
// no portable per-thread clock, so everything the process does meanwhile
// counts against the step (a conservative meter, with a generous budget).
func startMeter(w *watch) (stop func()) {
	base := processCPU()
	w.mu.Lock()
	w.meter = func() time.Duration { return processCPU() - base }
	w.mu.Unlock()
	return func() {}
}
