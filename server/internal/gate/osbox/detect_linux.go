package osbox

import (
	"strconv"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// minLandlockABI is the first ABI that restricts TCP as well as paths.
const minLandlockABI = 4

func landlockWorks() string {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return "the kernel does not offer Landlock (" + err.Error() + ")"
	}
	if v < minLandlockABI {
		return "the kernel's Landlock ABI is " + strconv.Itoa(v) + ", and " + strconv.Itoa(minLandlockABI) + " (Linux 6.7) is needed to refuse network access"
	}
	return ""
}
