//go:build !unix

package cputime

import "time"

// Self is unknown here (0): callers judge on wall time instead.
func Self() time.Duration { return 0 }

// WithChildren is unknown here (0), like Self.
func WithChildren() time.Duration { return 0 }
