//go:build !linux

package osbox

const (
	nprocLimit = 0
	dataLimit  = 0
)

func capToHard(_ int, v uint64) uint64 { return v }
