package shell

import (
	"os"
	"path/filepath"
	"runtime"
)

// What a run's environment block tells the model about the host, and the
// shell commands run in when the editor names none.

// PathSeparator is the host's path separator as text.
func PathSeparator() string { return string(filepath.Separator) }

// LineEnding names the host's line ending ("LF" or "CRLF").
func LineEnding() string {
	if runtime.GOOS == "windows" {
		return "CRLF"
	}
	return "LF"
}

// Default names the shell commands run in when the editor names none:
// $SHELL, else bash (PowerShell on Windows).
func Default() string {
	if runtime.GOOS == "windows" {
		return "powershell"
	}
	if s := os.Getenv("SHELL"); s != "" {
		return s
	}
	return "bash"
}
