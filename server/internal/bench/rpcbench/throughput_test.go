package main

import (
	"testing"
	"time"
)

func TestDeltaTextMakesDoubledDeltasVisible(t *testing.T) {
	for _, n := range []int{1, 36, 37, 10000} {
		s := deltaText(n)
		if len(s) != n {
			t.Fatalf("deltaText(%d) has %d chars", n, len(s))
		}
		for i := 1; i < len(s); i++ {
			if s[i] == s[i-1] {
				t.Fatalf("deltaText(%d) repeats %q at %d: a doubled delta would go unnoticed", n, s[i], i)
			}
		}
	}
}

func TestFirstDiff(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"abc", "abc", 3}, {"abd", "abc", 2}, {"ab", "abc", 2}, {"", "x", 0}} {
		if got := firstDiff(c.a, c.b); got != c.want {
			t.Errorf("firstDiff(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestMedianRunPicksTheMiddleRun(t *testing.T) {
	runs := []streamRun{{elapsed: 300 * time.Millisecond, events: 3}, {elapsed: 100 * time.Millisecond, events: 1}, {elapsed: 200 * time.Millisecond, events: 2}}
	if got := medianRun(runs); got.events != 2 {
		t.Fatalf("median run = %+v, want the 200ms one", got)
	}
	if got := medianRun(nil); got != (streamRun{}) {
		t.Fatalf("median of no runs = %+v", got)
	}
}
