package cputime

import (
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// Burning CPU shows up; sleeping does not.
func TestSelfCountsWorkNotWaiting(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no rusage here: Self is 0 by design")
	}
	// Spin until 30 ms of CPU are counted: on a loaded machine that takes
	// longer than 30 ms of wall time, but it must happen.
	c0, deadline := Self(), time.Now().Add(10*time.Second)
	x := 0
	for Self()-c0 < 30*time.Millisecond {
		if time.Now().After(deadline) {
			t.Fatalf("10 s of spinning counted only %v of CPU (%d)", Self()-c0, x)
		}
		x++
	}
	c1 := Self()
	time.Sleep(100 * time.Millisecond)
	if idle := Self() - c1; idle > 50*time.Millisecond {
		t.Fatalf("a 100 ms sleep counted %v of CPU", idle)
	}
}

// A waited-for child's CPU time is in WithChildren and not in Self.
func TestWithChildrenCountsWaitedChildren(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no rusage here: WithChildren is 0 by design")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to run a child")
	}
	before := WithChildren() - Self()
	// A shell loop burns its CPU in the child, none in this process.
	if out, err := exec.Command(sh, "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if grew := WithChildren() - Self() - before; grew <= 0 {
		t.Fatalf("the children's CPU time did not grow (%v) after a busy child", grew)
	}
}
