//go:build !unix

package snapshot

import "errors"

func mkfifo(string) error { return errors.New("no fifos on this platform") }
