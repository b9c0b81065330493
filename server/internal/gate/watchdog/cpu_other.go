//go:build !unix && !windows

package watchdog

import "time"

// processCPU is unknown here: the watchdog never fires.
func processCPU() time.Duration { return 0 }
