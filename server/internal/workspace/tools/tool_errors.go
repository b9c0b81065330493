package tools

import (
	"errors"
	"io/fs"
	"syscall"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// FailShown is a failure worded twice: output for the model (English, as
// before) and display for the person watching the tool card, in their
// language (built with env.Tr at the call site so the catalogue check
// sees the message).
func FailShown(output, display string) Result {
	return Result{OK: false, Output: output, Display: display}
}

// Withheld is a call the mode, its step or the agent's role does not run:
// the model reads output, and the chat shows display on a neutral card
// ("Not run in this mode"), as a rule followed rather than a failure.
func Withheld(output, display string) Result {
	r := FailShown(output, display)
	r.Meta = map[string]any{"withheld": true}
	return r
}

// BlockedByHook is a call a PreToolUse hook (the user's, or a trusted
// workspace's) refused: a rule someone set, shown like Withheld on a
// neutral card, labelled as the hook's ("Blocked by a hook") rather than
// the mode's.
func BlockedByHook(output, display string) Result {
	r := FailShown(output, display)
	r.Meta = map[string]any{"withheld": true, "withheldBy": "hook"}
	return r
}

// errShown words an error from the OS or a library for the person: the
// common kinds map to catalogue messages that keep the path; anything else
// shows under a translated lead with its detail as it came.
func errShown(env *Env, path string, err error) string {
	var ref *Refusal
	if errors.As(err, &ref) && ref.Display != "" {
		return ref.Display
	}
	var ke *safefile.KindError
	if errors.As(err, &ke) {
		return kindShown(env, path, ke.Mode)
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

// kindShown words a path that is neither a regular file nor a folder,
// which file tools leave alone; one message per kind, so the sentence is
// translated whole.
func kindShown(env *Env, path string, m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeNamedPipe != 0:
		return env.Tr("%s is a named pipe (FIFO), not a regular file; it was left alone.", path)
	case t&fs.ModeCharDevice != 0:
		return env.Tr("%s is a character device, not a regular file; it was left alone.", path)
	case t&fs.ModeDevice != 0:
		return env.Tr("%s is a block device, not a regular file; it was left alone.", path)
	case t&fs.ModeSocket != 0:
		return env.Tr("%s is a socket, not a regular file; it was left alone.", path)
	case t&fs.ModeSymlink != 0:
		return env.Tr("%s is a symbolic link that was not followed; it was left alone.", path)
	}
	return env.Tr("%s is a special file, not a regular file; it was left alone.", path)
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
