// Command rpcbench measures the sidecar's JSON-RPC edge over real stdio,
// each figure against a reference measured in the same run (the machine is
// noisy, ratios less so):
//
//	go run ./server/internal/bench/rpcbench [-bin bin/govibe] [-cold 25] [-calls 3000] [-deltas 10000] [-streams 3]
//
//	rpc.coldstart_initialize      spawn `govibe serve --stdio` → initialize reply, vs spawn+exit of /bin/true
//	rpc.coldstart_version         spawn+exit of `govibe version`, vs /bin/true (the binary's load cost alone)
//	rpc.roundtrip_unknown         unknown-method request → error reply, vs the same bytes echoed by cat
//	rpc.roundtrip_session_list    session/list on an empty store, vs the same bytes echoed by cat
//	rpc.notify_textdelta          one-char model deltas → chat/event textDelta until turnFinished,
//	                              vs the same count of framed chat/event notifications through cat
//	rpc.notify_textdelta_cpu      deltas per CPU-second of the whole pipeline (model server, sidecar,
//	                              client; Linux /proc), vs client+cat for the pipe: the judged figure
//	rpc.model_stream_alone        the scripted model's SSE stream read by a plain HTTP client
//
// Exit status, as storebench's: 0 every goal met, 1 a goal missed (its line
// says FAIL), 2 a measurement could not be made or bad usage.
package main

import (
	"flag"
	"fmt"
	"github.com/govibe/govibe/server/internal/bench/procstat"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/govibe/govibe/server/internal/bench/benchclient"
	"github.com/govibe/govibe/server/internal/bench/cputime"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

type options struct {
	bin     string
	cold    int
	calls   int
	deltas  int
	streams int
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "bin/govibe", "the sidecar binary (make sidecar builds it)")
	flag.IntVar(&o.cold, "cold", 25, "cold starts to time (median reported; at least 20)")
	flag.IntVar(&o.calls, "calls", 3000, "round trips per probe (at least 2000)")
	flag.IntVar(&o.deltas, "deltas", 10000, "one-char model deltas per stream")
	flag.IntVar(&o.streams, "streams", 3, "streams to time (median reported)")
	flag.Parse()
	if err := o.validate(flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "rpcbench:", err)
		os.Exit(2)
	}
	r := run(o)
	switch {
	case r.failed > 0:
		fmt.Fprintf(os.Stderr, "rpcbench: %d measurement(s) could not be made\n", r.failed)
		os.Exit(2)
	case r.missed > 0:
		fmt.Fprintf(os.Stderr, "rpcbench: %d goal(s) missed\n", r.missed)
		os.Exit(1)
	}
}

// outcome counts what went wrong in a run.
type outcome struct {
	failed int // measurements that could not be made
	missed int // goals missed
}

// goal returns the verdict for one figure and counts a miss.
func (r *outcome) goal(ok bool) string {
	if !ok {
		r.missed++
	}
	return verdict(ok)
}

// validate checks the flags and makes the binary's path absolute (the
// sidecars run in the workspace directory).
func (o *options) validate(args []string) error {
	switch {
	case len(args) > 0:
		return fmt.Errorf("unexpected arguments %q", args)
	case o.cold < 20:
		return fmt.Errorf("-cold %d: need at least 20 runs for a stable median", o.cold)
	case o.calls < 2000:
		return fmt.Errorf("-calls %d: need at least 2000 round trips", o.calls)
	case o.deltas < 1:
		return fmt.Errorf("-deltas %d: need at least one delta", o.deltas)
	case o.streams < 1:
		return fmt.Errorf("-streams %d: need at least one stream", o.streams)
	}
	abs, err := filepath.Abs(o.bin)
	if err != nil {
		return err
	}
	if !fileExists(abs) {
		return fmt.Errorf("sidecar binary %s not found: run `make sidecar` or pass -bin", abs)
	}
	o.bin = abs
	return nil
}

// run prints every figure it can.
func run(o options) (r outcome) {
	fail := func(name string, err error) {
		r.failed++
		fmt.Println(line(name, "ERROR: "+err.Error()))
	}
	tmp, err := os.MkdirTemp("", "rpcbench-")
	if err != nil {
		fail("rpc.setup", err)
		return
	}
	defer os.RemoveAll(tmp)
	model, err := scripted.New()
	if err != nil {
		fail("rpc.setup", err)
		return
	}
	defer model.Close()
	fx, err := newFixture(tmp, o.bin, model.URL())
	if err != nil {
		fail("rpc.setup", err)
		return
	}

	if err := coldStartFigures(fx, o.cold, &r); err != nil {
		fail("rpc.coldstart_initialize", err)
	}

	cat, err := exec.LookPath("cat")
	if err != nil {
		fail("rpc.setup", fmt.Errorf("cat is needed for the echo reference: %w", err))
		return
	}
	sidecar, err := fx.started()
	if err != nil {
		fail("rpc.setup", err)
		return
	}
	echo, err := benchclient.StartPeer(tmp, cat)
	if err != nil {
		_ = sidecar.Close(time.Second)
		fail("rpc.setup", err)
		return
	}
	echo.Echo = true
	defer echo.Close(time.Second)

	for _, p := range probes {
		ours, ref, err := measureRoundTrip(sidecar, echo, p, o.calls)
		if err != nil {
			fail(p.name, err)
			continue
		}
		const goal = 200 * time.Microsecond
		fmt.Println(line(p.name,
			fmt.Sprintf("median=%s", ms(ours.median())),
			fmt.Sprintf("mean=%s", ms(ours.mean())),
			fmt.Sprintf("p99=%s", ms(ours.percentile(99))),
			fmt.Sprintf("ref(cat echo)=%s(mean %s)", ms(ref.median()), ms(ref.mean())),
			"ratio="+ratio(float64(ours.median()), float64(ref.median())),
			fmt.Sprintf("calls=%d", len(ours)),
			"goal<0.2ms(median) "+r.goal(ours.median() < goal)))
	}

	if err := streamFigures(sidecar, echo, model, o.deltas, o.streams, &r); err != nil {
		fail("rpc.notify_textdelta", err)
	}
	if err := sidecar.Shutdown(5 * time.Second); err != nil {
		fail("rpc.shutdown", err)
	}
	return r
}

func coldStartFigures(fx *fixture, runs int, out *outcome) error {
	truePath, err := exec.LookPath("true")
	if err != nil {
		return fmt.Errorf("the true command is needed as the spawn reference: %w", err)
	}
	r, err := measureColdStart(fx, truePath, runs)
	if err != nil {
		return err
	}
	const goal = 50 * time.Millisecond
	ref := fmt.Sprintf("ref(%s spawn)=%s", truePath, ms(r.trueRef.median()))
	fmt.Println(line("rpc.coldstart_initialize",
		"median="+ms(r.initialize.median()),
		"p90="+ms(r.initialize.percentile(90)),
		ref,
		"ratio="+ratio(float64(r.initialize.median()), float64(r.trueRef.median())),
		fmt.Sprintf("runs=%d", len(r.initialize)),
		"goal<50ms "+out.goal(r.initialize.median() < goal)))
	fmt.Println(line("rpc.coldstart_version",
		"median="+ms(r.version.median()),
		"p90="+ms(r.version.percentile(90)),
		ref,
		"ratio="+ratio(float64(r.version.median()), float64(r.trueRef.median())),
		fmt.Sprintf("runs=%d", len(r.version))))
	return nil
}

func streamFigures(sidecar, echo *benchclient.Peer, model *scripted.Server, deltas, streams int, out *outcome) error {
	text := deltaText(deltas)
	var ours, ref, alone []streamRun
	// CPU time of every process each side runs: the sidecar's stream
	// takes the model server and the client (both in this process) and
	// the sidecar; the reference takes this process and cat.
	var sidecarCPU, pipelineCPU, refCPU time.Duration
	cpuKnown := true
	for i := 0; i < streams; i++ {
		s0 := cputime.Self()
		c0, ok0 := procstat.CPU(sidecar.Pid())
		r, err := streamThroughSidecar(sidecar, model, text)
		if err != nil {
			return fmt.Errorf("stream %d: %w", i+1, err)
		}
		c1, ok1 := procstat.CPU(sidecar.Pid())
		s1 := cputime.Self()
		ours = append(ours, r)
		e0, ok2 := procstat.CPU(echo.Pid())
		if r, err = pushThroughPipe(echo, text); err != nil {
			return fmt.Errorf("pipe reference %d: %w", i+1, err)
		}
		e1, ok3 := procstat.CPU(echo.Pid())
		s2 := cputime.Self()
		ref = append(ref, r)
		cpuKnown = cpuKnown && ok0 && ok1 && ok2 && ok3 && s0 > 0
		sidecarCPU += c1 - c0
		pipelineCPU += (c1 - c0) + (s1 - s0)
		refCPU += (e1 - e0) + (s2 - s1)
		model.Enqueue(scriptedReply(text))
		if r, err = streamModelAlone(model.URL(), text); err != nil {
			return fmt.Errorf("model reference %d: %w", i+1, err)
		}
		alone = append(alone, r)
	}
	o, rf, a := medianRun(ours), medianRun(ref), medianRun(alone)
	const goal = 50000
	deltaRate := float64(deltas) / o.elapsed.Seconds()
	// The goal is judged on CPU time where it can be read (Linux): the
	// stream is CPU-bound in three processes sharing the machine, and its
	// wall rate ranged from 22k to 81k deltas/s with the load of other
	// processes (2 CPUs, load 8 to 28). Deltas per CPU-second of the
	// whole pipeline is what one CPU to itself would sustain, a floor
	// for the wall rate on an idle machine with more than one.
	// Only the judged figure counts towards the exit status.
	cpuJudged := cpuKnown && pipelineCPU > 0
	wallVerdict := fmt.Sprintf("(goal>=%d/s judged on CPU time, next line)", goal)
	if !cpuJudged {
		wallVerdict = fmt.Sprintf("goal>=%d/s %s", goal, out.goal(deltaRate >= goal))
	}
	fmt.Println(line("rpc.notify_textdelta",
		"deltas/s="+rate(deltas, o.elapsed),
		"events/s="+rate(o.events, o.elapsed),
		fmt.Sprintf("events=%d chars=%d/%d", o.events, o.chars, deltas),
		"time="+ms(o.elapsed),
		fmt.Sprintf("ref(cat pipe %d notifications)=%s/s", rf.events, rate(rf.events, rf.elapsed)),
		"ratio="+ratio(float64(o.elapsed), float64(rf.elapsed)),
		wallVerdict))
	if cpuJudged {
		n := deltas * streams
		cpuRate := float64(n) / pipelineCPU.Seconds()
		fmt.Println(line("rpc.notify_textdelta_cpu",
			"deltas/cpu-s="+rate(n, pipelineCPU),
			fmt.Sprintf("pipeline_cpu_per_delta=%.2fus(model+sidecar+client)", us(pipelineCPU, n)),
			fmt.Sprintf("sidecar_per_delta=%.2fus", us(sidecarCPU, n)),
			fmt.Sprintf("ref(cat pipe, client+cat)=%s/cpu-s", rate(n, refCPU)),
			"ratio="+ratio(float64(pipelineCPU), float64(refCPU)),
			fmt.Sprintf("goal>=%d/cpu-s %s", goal, out.goal(cpuRate >= goal))))
	}
	// Informational: where the timed window goes (no goal).
	fmt.Println(line("rpc.notify_textdelta_phases",
		"to_first_delta="+ms(o.firstDelta),
		"first_to_last_delta="+ms(o.lastDelta-o.firstDelta),
		"last_delta_to_finished="+ms(o.elapsed-o.lastDelta)))
	fmt.Println(line("rpc.model_stream_alone",
		"deltas/s="+rate(a.chars, a.elapsed),
		"time="+ms(a.elapsed),
		"share_of_sidecar_time="+ratio(float64(a.elapsed), float64(o.elapsed))))
	return nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
