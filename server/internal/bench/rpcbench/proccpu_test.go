package main

import (
	"os"
	"runtime"
	"testing"
)

// processCPU reads this process's own CPU time on Linux and says so when
// it cannot (other systems, a process that is gone).
func TestProcessCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, ok := processCPU(os.Getpid()); ok {
			t.Fatal("processCPU claims a reading without /proc")
		}
		return
	}
	x := 0
	c0, ok := processCPU(os.Getpid())
	for i := range 50_000_000 {
		x += i
	}
	c1, ok1 := processCPU(os.Getpid())
	if !ok || !ok1 || c1 < c0 || x == 0 {
		t.Fatalf("readings %v %v (ok %v %v)", c0, c1, ok, ok1)
	}
	if _, ok := processCPU(-1); ok {
		t.Fatal("a reading for pid -1")
	}
}
