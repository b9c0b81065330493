package main

import (
	"github.com/govibe/govibe/server/internal/bench/procstat"
	"os"
	"runtime"
	"testing"
)

// processCPU reads this process's own CPU time on Linux and says so when
// it cannot (other systems, a process that is gone).
func TestProcessCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, ok := procstat.CPU(os.Getpid()); ok {
			t.Fatal("processCPU claims a reading without /proc")
		}
		return
	}
	x := 0
	c0, ok := procstat.CPU(os.Getpid())
	for i := range 50_000_000 {
		x += i
	}
	c1, ok1 := procstat.CPU(os.Getpid())
	if !ok || !ok1 || c1 < c0 || x == 0 {
		t.Fatalf("readings %v %v (ok %v %v)", c0, c1, ok, ok1)
	}
	if _, ok := procstat.CPU(-1); ok {
		t.Fatal("a reading for pid -1")
	}
}
