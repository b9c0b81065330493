// Command sessionbench drives the real sidecar (`govibe serve --stdio`)
// through whole sessions on the scripted model:
//
//	go run ./server/internal/bench/sessionbench -mode rounds [-bin bin/govibe] [-rounds 100] [-turns 3]
//	go run ./server/internal/bench/sessionbench -mode long   [-bin bin/govibe] [-messages 10000]
//
//	session.read_round  one read_file round (model request → tool call →
//	                    result stored → next request), the model server's
//	                    own time subtracted (the same requests replayed
//	                    against it alone). Goal ≤ 5 ms, idle (issue 34).
//	session.long_rss    the sidecar's RSS after each thousand messages of a
//	                    session with sub-agent runs and large tool results.
//	                    Goals: the last thousand within 1.2× the second, and
//	                    under 300 MB (issue 35).
//
// Linux only for the RSS (/proc). Exit status: 0 every goal met, 1 a goal
// missed (its line says FAIL), 2 a measurement could not be made or bad
// usage.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

func main() {
	var (
		bin      = flag.String("bin", "bin/govibe", "the sidecar binary (make sidecar builds it)")
		mode     = flag.String("mode", "", "rounds or long")
		rounds   = flag.Int("rounds", 100, "read rounds per timed turn")
		turns    = flag.Int("turns", 3, "timed turns (the best is reported)")
		messages = flag.Int("messages", 10000, "messages in the long session (a multiple of 1000)")
		subs     = flag.Int("subagents", 20, "sub-agent runs in the long session")
		large    = flag.Int("large", 200, "large tool results in the long session")
	)
	flag.Parse()
	abs, err := filepath.Abs(*bin)
	if err == nil {
		_, err = os.Stat(abs)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "sessionbench: sidecar binary %s not found: run `make sidecar` or pass -bin\n", *bin)
		os.Exit(2)
	}
	var ok bool
	switch {
	case flag.NArg() > 0:
		err = fmt.Errorf("unexpected arguments %q", flag.Args())
	case *mode == "rounds" && *rounds >= 1 && *turns >= 1:
		ok, err = benchRounds(abs, *rounds, *turns, 5*time.Millisecond)
	case *mode == "long" && *messages >= 3000 && *messages%1000 == 0 && *subs >= 0 && *large >= 0:
		ok, err = benchLong(abs, longOptions{messages: *messages, subagents: *subs, large: *large})
	default:
		err = fmt.Errorf("usage: sessionbench -mode rounds|long [-bin path] [-rounds n] [-turns n] [-messages 3000..] [-subagents n] [-large n]")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sessionbench:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}
