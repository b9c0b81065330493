//go:build !linux

package browser

import "time"

// ProfileProcesses is implemented on Linux only; elsewhere the driver's
// own close is relied on.
func ProfileProcesses(string) []int { return nil }

func killProfileProcesses(string, time.Duration) {}
