//go:build !linux

package osbox

func newPidsCgroup(int) string { return "" }
func enterCgroup(string) error { return nil }
func removeCgroup(string)      {}
