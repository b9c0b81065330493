package osbox

import "golang.org/x/sys/unix"

const (
	nprocLimit = unix.RLIMIT_NPROC
	dataLimit  = unix.RLIMIT_DATA
)

// capToHard lowers v to the hard limit this process already has: a limit
// can be lowered by anyone but raised only by root, so asking for more
// would make the command fail to start.
func capToHard(res int, v uint64) uint64 {
	var cur unix.Rlimit
	if err := unix.Getrlimit(res, &cur); err == nil && cur.Max != unix.RLIM_INFINITY && cur.Max < v {
		return cur.Max
	}
	return v
}
