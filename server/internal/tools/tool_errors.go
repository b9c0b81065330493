package tools

import (
	"errors"
	"io/fs"
	"syscall"
)

// FailShown is a failure worded twice: output for the model (English, as
// before) and display for the person watching the tool card, in their
// language (built with env.Tr at the call site so the catalogue check
// sees the message).
func FailShown(output, display string) Result {
	return Result{OK: false, Output: output, Display: display}
}

// errShown words an error from the OS or a library for the person: the
// common kinds map to catalogue messages that keep the path; anything else
// shows under a translated lead with its detail as it came.
func errShown(env *Env, path string, err error) string {
	var ref *Refusal
	if errors.As(err, &ref) && ref.Display != "" {
		return ref.Display
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return env.Tr("%s does not exist.", path)
	case errors.Is(err, fs.ErrPermission):
		return env.Tr("Permission denied: %s.", path)
	case errors.Is(err, syscall.EISDIR):
		return env.Tr("%s is a folder, not a file.", path)
	case errors.Is(err, syscall.ENOTDIR):
		return env.Tr("A part of %s is a file, not a folder.", path)
	case errors.Is(err, syscall.EFBIG), errors.Is(err, syscall.ENOSPC):
		return env.Tr("%s is too large, or the disk is full.", path)
	}
	return env.Tr("Could not access %s: %v", path, err)
}

// badArgsShown words a tool call whose arguments do not decode.
func badArgsShown(env *Env, tool string) string {
	return env.Tr("The model called %s with invalid arguments; it was told what to fix.", tool)
}

// tooLargeShown words a file over the size limit.
func tooLargeShown(env *Env, display string, size int64) string {
	return env.Tr("%s is too large (%s) for this tool.", display, humanSize(size))
}

// binaryShown words a binary file a text tool will not touch.
func binaryShown(env *Env, display, kind string) string {
	return env.Tr("%s is a binary file (%s); only text files are handled.", display, kind)
}

// linesShown words a line range that does not fit the file.
func linesShown(env *Env, display string, start, end, total int) string {
	if end < 1 {
		end = start // no end given: the range is the start line
	}
	return env.Tr("Lines %d–%d are out of range for %s, which has %d lines.", start, end, display, total)
}

// fetchShown words a web fetch that failed; the cause (the network's or
// the SSRF policy's words) is kept as it came.
func fetchShown(env *Env, url string, err error) string {
	return env.Tr("Could not fetch %s: %v", clip(url, 300), err)
}
