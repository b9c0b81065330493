package main

import (
	"testing"
	"time"
)

func TestSampleStatistics(t *testing.T) {
	odd := sample{5 * time.Millisecond, 1 * time.Millisecond, 3 * time.Millisecond}
	if got := odd.median(); got != 3*time.Millisecond {
		t.Errorf("median of odd sample = %v, want 3ms", got)
	}
	if odd[0] != 5*time.Millisecond {
		t.Errorf("median sorted the caller's sample: %v", odd)
	}
	even := sample{4, 1, 3, 2}
	if got := even.median(); got != 2 {
		t.Errorf("median of {1,2,3,4}ns = %v, want 2ns (mean of 2 and 3, truncated)", got)
	}
	if got := (sample{10, 20, 40, 50}).median(); got != 30 {
		t.Errorf("median of {10,20,40,50} = %v, want 30", got)
	}
	if got := (sample{1, 2, 3, 10}).mean(); got != 4 {
		t.Errorf("mean = %v, want 4", got)
	}
	var hundred sample
	for i := 100; i >= 1; i-- {
		hundred = append(hundred, time.Duration(i))
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{50, 50}, {90, 90}, {99, 99}, {100, 100}, {0, 1}, {0.5, 1}} {
		if got := hundred.percentile(c.p); got != c.want {
			t.Errorf("p%v of 1..100 = %v, want %v", c.p, got, c.want)
		}
	}
	var empty sample
	if empty.median() != 0 || empty.mean() != 0 || empty.percentile(99) != 0 {
		t.Error("an empty sample must give zero figures, not panic")
	}
}

func TestFormatting(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{84 * time.Microsecond, "0.084ms"},
		{1234 * time.Microsecond, "1.23ms"},
		{12345 * time.Microsecond, "12.3ms"},
		{250 * time.Millisecond, "250ms"},
	} {
		if got := ms(c.d); got != c.want {
			t.Errorf("ms(%v) = %q, want %q", c.d, got, c.want)
		}
	}
	if got := ratio(12.3, 1.1); got != "11.2x" {
		t.Errorf("ratio(12.3, 1.1) = %q", got)
	}
	if got := ratio(1.5, 1); got != "1.50x" {
		t.Errorf("ratio(1.5, 1) = %q", got)
	}
	if got := ratio(1, 0); got != "n/a" {
		t.Errorf("ratio against a zero reference = %q, want n/a", got)
	}
	if got := rate(10000, 200*time.Millisecond); got != "50,000" {
		t.Errorf("rate = %q, want 50,000", got)
	}
	if got := rate(1, 0); got != "n/a" {
		t.Errorf("rate over zero time = %q, want n/a", got)
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
