package engine

import (
	"os"
	"path/filepath"
	"runtime"
)

// What a run's environment block says about the host (runenv.go), and
// the shell tools use when the editor names none.

func pathSep() string { return string(filepath.Separator) }

func lineEnding() string {
	if runtime.GOOS == "windows" {
		return "CRLF"
	}
	return "LF"
}

// DefaultShell names the shell tools use.
func DefaultShell() string {
	if runtime.GOOS == "windows" {
		return "powershell"
	}
	if s := os.Getenv("SHELL"); s != "" {
		return s
	}
	return "bash"
}
