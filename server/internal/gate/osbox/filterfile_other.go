//go:build !linux

package osbox

import (
	"errors"
	"os"
)

func filterFile(bool) (*os.File, error) { return nil, errors.New("seccomp is a Linux feature") }
