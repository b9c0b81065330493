package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// sample is a set of timings. Its methods never modify it.
type sample []time.Duration

// median is the middle value, or the mean of the two middle values.
func (s sample) median() time.Duration {
	if len(s) == 0 {
		return 0
	}
	c := slices.Clone(s)
	slices.Sort(c)
	if n := len(c); n%2 == 1 {
		return c[n/2]
	} else {
		return (c[n/2-1] + c[n/2]) / 2
	}
}

func (s sample) mean() time.Duration {
	if len(s) == 0 {
		return 0
	}
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	return sum / time.Duration(len(s))
}

// percentile uses the nearest-rank method: the smallest value with at least
// p% of the sample at or below it, so p99 of 100 values is the 99th.
func (s sample) percentile(p float64) time.Duration {
	if len(s) == 0 {
		return 0
	}
	c := slices.Clone(s)
	slices.Sort(c)
	rank := int(math.Ceil(p / 100 * float64(len(c))))
	return c[min(max(rank, 1), len(c))-1]
}

// ms formats a duration in milliseconds with three significant digits, so
// sub-millisecond round trips and second-long streams read alike.
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0fms", v)
	case v >= 10:
		return fmt.Sprintf("%.1fms", v)
	case v >= 1:
		return fmt.Sprintf("%.2fms", v)
	default:
		return fmt.Sprintf("%.3fms", v)
	}
}

// ratio is how many times a is of ref ("11.2x"); a zero reference has no
// meaningful ratio.
func ratio(a, ref float64) string {
	if ref <= 0 || math.IsInf(ref, 0) || math.IsNaN(ref) {
		return "n/a"
	}
	r := a / ref
	if r >= 10 {
		return fmt.Sprintf("%.1fx", r)
	}
	return fmt.Sprintf("%.2fx", r)
}

// rate formats a per-second rate with thousands separators.
func rate(count int, d time.Duration) string {
	if d <= 0 {
		return "n/a"
	}
	return thousands(int64(math.Round(float64(count) / d.Seconds())))
}

// us is d per item in microseconds.
func us(d time.Duration, n int) float64 {
	if n <= 0 {
		return 0
	}
	return float64(d.Nanoseconds()) / 1000 / float64(n)
}

func thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

// line prints one figure: its name padded to a column, then fields.
func line(name string, fields ...string) string {
	return fmt.Sprintf("%-28s  %s", name, strings.Join(fields, "  "))
}
