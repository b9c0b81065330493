package secretenv

import "errors"

const supported = false

// Windows has no exec that keeps the process; the sidecar keeps its
// environment there and children are still scrubbed by package shell.
func handOver([]byte) (int, error) { return -1, errors.New("not supported on Windows") }

func reexec([]string) error { return errors.New("not supported on Windows") }

func closeFD(int) {}

// nameProcess: exec through the executable's path keeps its name here.
func nameProcess() {}
