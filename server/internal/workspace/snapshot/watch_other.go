//go:build !linux

package snapshot

// The watcher uses inotify; elsewhere (kqueue needs a descriptor per file,
// which a big workspace exhausts) every scan is a full one.
func (s *Store) startWatcher() (changeSource, string) {
	return nil, "file watching is only implemented on Linux"
}
