//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd

package snapshot

import "os"

// platformStat has nothing beyond size and mtime to offer here; the cache
// then relies on those, as git does with core.trustctime=false.
func platformStat(fi os.FileInfo) (ctime int64, ino uint64) { return 0, 0 }
