//go:build !linux

package osbox

import "errors"

func runHelper(o helperOpts, argv []string) error {
	return errors.New("the command sandbox helper runs on Linux only")
}

func loadFilter(bool) error { return errors.New("seccomp is a Linux feature") }
