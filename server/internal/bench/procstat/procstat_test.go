package procstat

import (
	"os"
	"runtime"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	// A command name with spaces and a ')' inside; utime 150, stime 50.
	line := "1234 (go (x) y) S 1 1234 1234 0 -1 4194560 100 0 0 0 150 50 0 0 20 0 1 0 100 1000 10"
	got, ok := parseStat(line)
	if !ok || got != 2*time.Second {
		t.Fatalf("got %v, %v; want 2s", got, ok)
	}
	for _, bad := range []string{"", "1 (x", "1 (x) S 1 2", "1 (x) S 1 2 3 4 5 6 7 8 9 10 u s"} {
		if _, ok := parseStat(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestOwnProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc, which only Linux has")
	}
	if _, ok := CPU(os.Getpid()); !ok {
		t.Error("no CPU time for this process")
	}
	if rss, err := RSS(os.Getpid()); err != nil || rss <= 0 {
		t.Errorf("RSS %d, %v", rss, err)
	}
	if hwm, err := HWM(os.Getpid()); err != nil || hwm <= 0 {
		t.Errorf("HWM %d, %v", hwm, err)
	}
}
