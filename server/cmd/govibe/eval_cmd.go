package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/govibe/govibe/server/internal/agent/evalsuite"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/host/logging"
)

// evalCmd runs the built-in task suite against a model and reports, per
// task and in total, whether the checks passed and what it cost.
func evalCmd(args []string, stdout io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	var mf modelFlags
	mf.register(fs, 30, "cap on tool rounds per task")
	tasks := fs.String("tasks", "", "comma-separated task names (default: all; --list shows them)")
	list := fs.Bool("list", false, "list the tasks and exit")
	repeat := fs.Int("repeat", 1, "run each task N times")
	asJSON := fs.Bool("json", false, "print the report as JSON instead of a table")
	timeout := fs.Duration("timeout", 10*time.Minute, "cap on one task's wall time")
	keep := fs.Bool("keep", false, "keep each task's workspace (paths on stderr)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: govibe eval [flags]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "govibe eval: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	all := evalsuite.Tasks()
	if *list {
		for _, t := range all {
			fmt.Fprintf(stdout, "%-14s %s\n", t.Name, t.Description)
		}
		return exitDone
	}
	var names []string
	if *tasks != "" {
		names = strings.Split(*tasks, ",")
	}
	selected, err := evalsuite.Select(all, names)
	if err != nil {
		fmt.Fprintln(os.Stderr, "govibe eval:", err)
		return exitUsage
	}
	if *repeat < 1 || mf.maxTurns < 1 || *timeout <= 0 {
		fmt.Fprintln(os.Stderr, "govibe eval: --repeat, --max-turns and --timeout must be positive")
		return exitUsage
	}
	extra := mf.extra()
	if _, err := loadSettings(mf.sets, extra); err != nil {
		fmt.Fprintln(os.Stderr, "govibe eval:", err)
		return exitUsage
	}
	keys := mf.takeKey()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	env := evalsuite.NewEnv()
	defer env.Close()
	r := &evalRunner{sets: mf.sets, extra: extra, keys: keys, timeout: *timeout}
	rep, err := evalsuite.RunSuite(ctx, env, selected, r.run, evalsuite.Options{
		Repeat: *repeat, Keep: *keep,
		Progress: func(res evalsuite.Result) {
			verdict := "pass"
			if !res.Pass {
				verdict = "FAIL: " + res.Reason
			}
			fmt.Fprintf(os.Stderr, "govibe eval: %s #%d %s (%.1fs)\n", res.Task, res.Attempt, verdict, res.WallSeconds)
			if res.Workspace != "" {
				fmt.Fprintf(os.Stderr, "govibe eval: kept %s\n", res.Workspace)
			}
		},
	})
	rep.Model, rep.Version = r.model, version()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
	} else {
		fmt.Fprintf(stdout, "model %s, %s\n", rep.Model, rep.Version)
		_ = evalsuite.Table(stdout, rep)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "govibe eval:", err)
		return exitError
	}
	if rep.Total.Passed < rep.Total.Runs {
		return exitError
	}
	return exitDone
}

// evalRunner runs each task through a fresh headless engine, as exec
// does, with --approve all: the workspace is a throwaway copy and shell
// commands still run in the OS sandbox.
type evalRunner struct {
	sets    []string
	extra   config.Values
	keys    map[string]string
	timeout time.Duration
	model   string
}

func (r *evalRunner) run(parent context.Context, run evalsuite.Run) (evalsuite.Transcript, error) {
	var tr evalsuite.Transcript
	ctx, cancel := context.WithTimeout(parent, r.timeout)
	defer cancel()
	extra := config.Values{}
	for k, v := range r.extra {
		extra[k] = v
	}
	for k, v := range run.Settings {
		extra[k] = v
	}
	resolved, err := loadSettings(r.sets, extra)
	if err != nil {
		return tr, err
	}
	state, err := os.MkdirTemp("", "govibe-eval-state-")
	if err != nil {
		return tr, err
	}
	defer os.RemoveAll(state)
	typed := config.Typed(resolved.Values)
	r.model = typed.Model
	log := logging.New(logging.Options{Level: typed.LogLevel, Dir: filepath.Join(state, "logs"), Stderr: discardUnlessDebug()})
	log.Redactor.Set(r.keys[""])
	defer log.Sync()
	eng, err := newEvalEngine(run.Workspace, state, log, resolved, r.keys)
	if err != nil {
		return tr, err
	}
	defer eng.Close()
	rec := &transcriptRecorder{}
	return rec.drive(ctx, eng, run)
}
