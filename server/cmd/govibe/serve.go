package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/host/logging"
	"github.com/govibe/govibe/server/internal/rpc/server"
	"github.com/govibe/govibe/server/internal/rpc/wire"
)

func version() string {
	return "govibe " + server.Version + " (protocol " + fmt.Sprint(protocol.Version) + ")"
}

// stdio joins stdin and stdout into the connection's stream. Nothing else
// may write to stdout: the logger goes to stderr.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return os.Stdin.Close() }

func serve(args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	useStdio := fs.Bool("stdio", false, "serve JSON-RPC over stdin/stdout")
	logDir := fs.String("log-dir", "", "also write a rotated log file here")
	level := fs.String("log-level", "info", "debug|info|warn|error")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if !*useStdio {
		fmt.Fprintln(os.Stderr, "govibe serve: only --stdio is supported")
		return 2
	}
	if *logDir == "" {
		*logDir = os.Getenv("GOVIBE_LOG_DIR")
	}
	log := logging.New(logging.Options{Level: *level, Dir: *logDir})
	defer log.Sync()
	if path := os.Getenv("GOVIBE_CPUPROFILE"); path != "" {
		// For performance work only: profile the whole session.
		if f, err := os.Create(path); err == nil {
			if err := pprof.StartCPUProfile(f); err == nil {
				defer func() { pprof.StopCPUProfile(); f.Close() }()
			}
		}
	}

	exitCode := make(chan int, 1)
	lazy := wire.NewLazy()
	srv := server.New(protocol.NewClient(lazy), log, func(code int) {
		select {
		case exitCode <- code:
		default:
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	caller := wire.Serve(ctx, stdio{os.Stdin, os.Stdout}, func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		return protocol.Dispatch(ctx, srv, method, params)
	}, log.Logger)
	lazy.Set(caller)
	log.Info("govibe sidecar started", zap.String("version", server.Version), zap.Int("pid", os.Getpid()))

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	select {
	case code := <-exitCode:
		return code
	case <-caller.Done():
		// The editor closed the pipe. An exit it sent just before still
		// counts: let the ordered worker finish what it received.
		select {
		case <-caller.Drained():
		case <-time.After(5 * time.Second):
		}
		select {
		case code := <-exitCode:
			return code
		default:
		}
		// It went away without exit: persist and stop.
		closeWithin(srv.Close, closeGrace, sigs, log.Logger)
		return 1
	case s := <-sigs:
		log.Info("signal received; shutting down", zap.String("signal", s.String()))
		if !closeWithin(srv.Close, closeGrace, sigs, log.Logger) {
			return 1
		}
		return 0
	}
}

// closeGrace is how long a shutdown waits for running turns to stop.
const closeGrace = 10 * time.Second

// closeWithin runs shut (which waits for every running turn to notice
// its cancellation) for at most grace, or until a second signal: a turn
// stuck in a call that ignores cancellation must not make the sidecar
// ignore SIGTERM (issue 31). The store survives an exit without close (its
// journal is replayed, and interrupted turns are recovered at the next
// start). It reports whether shut finished.
func closeWithin(shut func(), grace time.Duration, sigs <-chan os.Signal, log *zap.Logger) bool {
	done := make(chan struct{})
	go func() { defer close(done); shut() }()
	select {
	case <-done:
		return true
	case <-time.After(grace):
		log.Warn("shutdown did not finish in time; exiting anyway", zap.Duration("grace", grace))
	case s := <-sigs:
		log.Warn("second signal during shutdown; exiting now", zap.String("signal", s.String()))
	}
	return false
}
