//go:build linux

package snapshot

import (
	"os"
	"syscall"
)

func platformStat(fi os.FileInfo) (ctime int64, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano(), st.Ino
	}
	return 0, 0
}
