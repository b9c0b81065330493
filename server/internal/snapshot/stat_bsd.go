//go:build darwin || freebsd || netbsd || openbsd

package snapshot

import (
	"os"
	"syscall"
)

func platformStat(fi os.FileInfo) (ctime int64, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctimespec.Nano(), uint64(st.Ino)
	}
	return 0, 0
}
