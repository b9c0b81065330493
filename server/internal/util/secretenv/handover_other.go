//go:build !linux && !windows

package secretenv

import (
	"errors"
	"os"
	"syscall"
)

// pipeCap is what a pipe buffers without a reader on every Unix we ship.
const pipeCap = 16 << 10

const supported = true

// handOver writes data into a pipe whose read end the new image inherits.
func handOver(data []byte) (int, error) {
	if len(data) > pipeCap {
		return -1, errors.New("the variables to hold do not fit in a pipe")
	}
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		return -1, err
	}
	if _, err := syscall.Write(p[1], data); err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return -1, err
	}
	syscall.Close(p[1])
	return p[0], nil
}

func reexec(env []string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return syscall.Exec(exe, os.Args, env)
}

func closeFD(fd int) { syscall.Close(fd) }

// nameProcess: exec through the executable's path keeps its name here.
func nameProcess() {}
