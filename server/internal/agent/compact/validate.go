package compact

import (
	"errors"
	"fmt"
	"strings"
)

// Failure reasons recorded for a compaction attempt.
var (
	ErrNoSnapshot = errors.New("the model's reply has no complete <state_snapshot> element")
	ErrEmpty      = errors.New("the model's <state_snapshot> is empty")
)

// InflatedError says the summary is not smaller than what it replaces.
type InflatedError struct{ Before, After int }

func (e *InflatedError) Error() string {
	return fmt.Sprintf("the summary (%d tokens) is not smaller than the messages it replaces (%d tokens)", e.After, e.Before)
}

// ExtractSnapshot returns the last complete <state_snapshot> element of a
// reply, dropping any scratchpad around it. A reply cut off before the
// closing tag (output limit) is rejected rather than half-used.
func ExtractSnapshot(reply string) (string, error) {
	open, closeTag := "<"+SnapshotTag+">", "</"+SnapshotTag+">"
	end := strings.LastIndex(reply, closeTag)
	if end < 0 {
		return "", ErrNoSnapshot
	}
	start := strings.LastIndex(reply[:end], open)
	if start < 0 {
		return "", ErrNoSnapshot
	}
	inner := strings.TrimSpace(reply[start+len(open) : end])
	if inner == "" {
		return "", ErrEmpty
	}
	found := false
	for _, s := range Sections {
		if strings.Contains(inner, "<"+s+">") {
			found = true
			break
		}
	}
	if !found {
		return "", fmt.Errorf("%w: none of its sections (%s) are present", ErrEmpty, strings.Join(Sections, ", "))
	}
	return reply[start : end+len(closeTag)], nil
}

// CheckSmaller rejects a summary that does not shrink the context.
func CheckSmaller(before, after int) error {
	if after >= before {
		return &InflatedError{Before: before, After: after}
	}
	return nil
}
