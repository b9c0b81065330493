// Command membench measures what one large JSON-RPC message costs the
// sidecar in memory, over real stdio (issue 31):
//
//	go run ./server/internal/bench/membench [-bin bin/govibe] [-mb 60] [-after 10s]
//
//	mem.large_request_peak   peak RSS while a request with a body of -mb MB
//	                         (session/search with that long a query, refused
//	                         after decoding) is read, decoded and answered,
//	                         against the body's size. Goal ≤ 2.5×.
//	mem.large_request_after  RSS -after the answer (the sidecar idle), against
//	                         the RSS before the request. Goal: within a quarter
//	                         of the body of where it started.
//
// Linux only (/proc/PID/status). Exit status: 0 every goal met, 1 a goal
// missed (its line says FAIL), 2 a measurement could not be made or bad
// usage.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

type options struct {
	bin   string
	mb    int
	after time.Duration
	goal  float64
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "bin/govibe", "the sidecar binary (make sidecar builds it)")
	flag.IntVar(&o.mb, "mb", 60, "body size of the large request in MB (the cap is 64)")
	flag.DurationVar(&o.after, "after", 10*time.Second, "how long after the answer the RSS is read again")
	flag.Float64Var(&o.goal, "goal", 2.5, "largest accepted peak RSS as a multiple of the body")
	flag.Parse()
	if runtime.GOOS != "linux" {
		fmt.Println("membench: needs Linux's /proc; skipped")
		return
	}
	if flag.NArg() > 0 || o.mb < 1 || o.mb > 63 {
		fmt.Fprintln(os.Stderr, "membench: usage: membench [-bin path] [-mb 1..63] [-after 10s]")
		os.Exit(2)
	}
	abs, err := filepath.Abs(o.bin)
	if err == nil {
		_, err = os.Stat(abs)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "membench: sidecar binary %s not found: run `make sidecar` or pass -bin\n", o.bin)
		os.Exit(2)
	}
	o.bin = abs
	missed, err := run(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "membench:", err)
		os.Exit(2)
	}
	if missed > 0 {
		fmt.Fprintf(os.Stderr, "membench: %d goal(s) missed\n", missed)
		os.Exit(1)
	}
}

func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "FAIL"
}

func mb(n int64) string { return fmt.Sprintf("%.1fMB", float64(n)/(1<<20)) }
