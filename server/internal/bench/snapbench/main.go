// Command snapbench measures the snapshot engine against the git CLI doing
// the same work on an equivalent shadow repository, in the same run:
//
//	go run ./server/internal/bench/snapbench [-files 20000] [-mb 200] [-reps 5] [-growth 100]
//
// It builds a synthetic workspace (source trees plus an ignored
// node_modules), then prints, each with git doing the same work: the first
// snapshot (and the process's peak RSS during it), incremental snapshots
// of 10 changed files with the file watcher and without it, the restore of
// 10 files (safety snapshot included; git: a commit and a checkout), and
// how the store grows over -growth small snapshots. Goals are flags, so
// `make bench` holds its 100k-file section to the stricter ones.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/snapshot"
)

// goals are the thresholds a run is held to.
type goals struct {
	firstRatio   float64 // first snapshot vs git
	incRatio     float64 // incremental with the watcher vs git
	incMS        float64
	noWatchRatio float64 // incremental without the watcher vs git
	restoreMS    float64
	growthRatio  float64
	rssMB        float64 // 0: report only
}

func main() {
	files := flag.Int("files", 20000, "number of files in the workspace")
	mb := flag.Int("mb", 200, "approximate workspace size in MB")
	reps := flag.Int("reps", 5, "repetitions of the incremental and restore measurements (median is printed)")
	growth := flag.Int("growth", 100, "small snapshots in the store-growth measurement (0 skips it)")
	keep := flag.Bool("keep", false, "keep the temporary directory")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the measured part to this file")
	var g goals
	flag.Float64Var(&g.firstRatio, "goal-first", 2, "goal: first snapshot at most this times git's")
	flag.Float64Var(&g.incRatio, "goal-inc", 1, "goal: incremental snapshot with the watcher at most this times git's")
	flag.Float64Var(&g.incMS, "goal-inc-ms", 300, "goal: incremental snapshot with the watcher under this many ms")
	flag.Float64Var(&g.noWatchRatio, "goal-nowatch", 1, "goal: incremental snapshot without the watcher at most this times git's")
	flag.Float64Var(&g.restoreMS, "goal-restore-ms", 200, "goal: restore of 10 files, safety snapshot included, under this many ms")
	flag.Float64Var(&g.growthRatio, "goal-growth", 1.5, "goal: store after the growth snapshots at most this times one snapshot plus the changed files")
	flag.Float64Var(&g.rssMB, "goal-rss-mb", 0, "goal: peak RSS during the first snapshot under this many MB (0: report only)")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "snapbench:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if *files < 100 || *mb < 1 || *reps < 1 || *growth < 0 {
		fmt.Fprintln(os.Stderr, "snapbench: need -files >= 100, -mb >= 1, -reps >= 1, -growth >= 0")
		os.Exit(2)
	}
	if _, err := exec.LookPath("git"); err != nil {
		fmt.Fprintln(os.Stderr, "snapbench: the git CLI is needed as the reference")
		os.Exit(1)
	}
	if err := run(*files, *mb, *reps, *growth, *keep, g); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "snapbench:", err)
		os.Exit(1)
	}
	if missed > 0 {
		pprof.StopCPUProfile()
		fmt.Printf("snapbench: %d goal(s) missed\n", missed)
		os.Exit(1)
	}
}

type bench struct {
	tmp, ws, state, gitDir string
	g                      *gen
	ctx                    context.Context
	gitRestores            []time.Duration
}

func (b *bench) gitSnap(msg string) (time.Duration, error) {
	t0 := time.Now()
	if err := gitRun(b.gitDir, b.ws, "add", "-A"); err != nil {
		return 0, err
	}
	err := gitRun(b.gitDir, b.ws, "commit", "-q", "--allow-empty", "-m", msg)
	return time.Since(t0), err
}

func run(nFiles, mb, reps, growth int, keep bool, goal goals) error {
	tmp, err := os.MkdirTemp("", "snapbench-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("keeping", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	b := &bench{tmp: tmp, ws: filepath.Join(tmp, "ws"), state: filepath.Join(tmp, "state"),
		gitDir: filepath.Join(tmp, "git-shadow"), ctx: context.Background()}
	b.g = newGen(b.ws)
	start := time.Now()
	if err := b.g.build(nFiles, int64(mb)<<20); err != nil {
		return err
	}
	fmt.Printf("machine: %d CPUs, load average %s\n", runtime.NumCPU(), loadAvg())
	fmt.Printf("workspace: %d files (%d tracked, %d in ignored node_modules), %.1f MB, built in %s\n",
		b.g.total, len(b.g.tracked), b.g.total-len(b.g.tracked), float64(b.g.bytes)/(1<<20), time.Since(start).Round(time.Millisecond))
	// Files younger than the racy window are re-read by both tools on the
	// next run; a real workspace is not all written a second ago.
	time.Sleep(2100 * time.Millisecond)
	if out, err := exec.Command("git", "init", "-q", "--bare", b.gitDir).CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}

	// First snapshot, by a store with the watcher as the sidecar opens it.
	st, err := snapshot.Open(b.state, b.ws, snapshot.Options{Watch: true})
	if err != nil {
		return err
	}
	watching := st.WaitWatcher(b.ctx)
	runtime.GC()
	resetPeakRSS()
	cpu0, _ := cpuTimes()
	t0 := time.Now()
	first, _, err := st.Snapshot(b.ctx, snapshot.Meta{SessionID: "bench", Message: "first"})
	if err != nil {
		return err
	}
	oursFirst := time.Since(t0)
	cpu1, gcpu0 := cpuTimes()
	rss := peakRSSMB()
	t0 = time.Now()
	if err := st.Pack(); err != nil {
		return err
	}
	packTime := time.Since(t0)
	gitFirst, err := b.gitSnap("first")
	if err != nil {
		return err
	}
	_, gcpu1 := cpuTimes()
	ratio := oursFirst.Seconds() / gitFirst.Seconds()
	fmt.Printf("first snapshot:            ours %8s  git %8s  ratio %.2fx  (goal <=%.2gx: %s)  [%d files stored, %d skipped]\n",
		ms(oursFirst), ms(gitFirst), ratio, goal.firstRatio, verdict(ratio <= goal.firstRatio), first.ChangedFiles, first.SkippedCount)
	if rss > 0 {
		line := fmt.Sprintf("  peak RSS during it: %.0f MB (whole process, reset just before)", rss)
		if goal.rssMB > 0 {
			line += fmt.Sprintf(" (goal <%.0f MB: %s)", goal.rssMB, verdict(rss < goal.rssMB))
		}
		fmt.Println(line)
	}
	if ours, git := cpu1-cpu0, gcpu1-gcpu0; git > 0 {
		fmt.Printf("  CPU time (user+system, steadier than wall time on a busy machine): ours %s  git %s  ratio %.2fx\n",
			ms(ours), ms(git), ours.Seconds()/git.Seconds())
	}
	fmt.Printf("  background pack after it: %s (off the snapshot's path)\n", ms(packTime))
	if !watching {
		fmt.Println("  no file watcher on this machine: the 'with watcher' figures below are full scans")
	}

	// Incremental snapshots and restores of 10 changed files, with the watcher.
	inc, gitInc, restores, err := b.rounds(st, first, reps, 0, true)
	if err != nil {
		return err
	}
	if err := st.Close(); err != nil {
		return err
	}
	mo, mg := median(inc), median(gitInc)
	ratio = mo.Seconds() / mg.Seconds()
	fmt.Printf("incremental, watcher:      ours %8s  git %8s  ratio %.2fx  (goal <=%.2gx and <%.0fms: %s)\n",
		ms(mo), ms(mg), ratio, goal.incRatio, goal.incMS, verdict(ratio <= goal.incRatio && mo.Seconds()*1000 < goal.incMS))
	mr := median(restores)

	// The same without the watcher: every snapshot stats every file.
	plain, err := snapshot.Open(b.state, b.ws, snapshot.Options{})
	if err != nil {
		return err
	}
	latest, _, err := plain.Snapshot(b.ctx, snapshot.Meta{SessionID: "bench", Message: "warm-up"})
	if err != nil {
		return err
	}
	noWatch, gitInc2, restoresNoWatch, err := b.rounds(plain, latest, reps, reps, false)
	if err != nil {
		return err
	}
	if err := plain.Close(); err != nil {
		return err
	}
	mo, mg = median(noWatch), median(gitInc2)
	ratio = mo.Seconds() / mg.Seconds()
	fmt.Printf("incremental, no watcher:   ours %8s  git %8s  ratio %.2fx  (goal <=%.2gx: %s)\n",
		ms(mo), ms(mg), ratio, goal.noWatchRatio, verdict(ratio <= goal.noWatchRatio))
	gr := median(b.gitRestores)
	fmt.Printf("restore 10 files, watcher: ours %8s  git %8s  ratio %.2fx  (incl. safety snapshot; git: commit + checkout; goal <%.0fms: %s)\n",
		ms(mr), ms(gr), mr.Seconds()/gr.Seconds(), goal.restoreMS, verdict(mr.Seconds()*1000 < goal.restoreMS))
	fmt.Printf("restore 10 files, no watcher: ours %8s (for reference)\n", ms(median(restoresNoWatch)))

	if growth > 0 {
		if err := b.storeGrowth(growth, goal.growthRatio); err != nil {
			return err
		}
	}
	fmt.Printf("load average at the end: %s (ratios compare tools measured back to back, so they hold up better than absolute times on a busy machine)\n", loadAvg())
	if gs, err := dirSize(b.gitDir); err == nil {
		fmt.Printf("  for reference, git's shadow repository (loose objects) is %.1f MB\n", mbf(gs))
	}
	return nil
}

// rounds changes 10 tracked files, snapshots (timed, as is git doing the
// same), restores the previous snapshot (timed; git: a safety commit and
// a checkout), and puts the change back, reps times.
func (b *bench) rounds(st *snapshot.Store, prev snapshot.Info, reps, offset int, timeGitRestore bool) (inc, gitInc, restores []time.Duration, err error) {
	for r := 0; r < reps; r++ {
		if err := b.g.changeTracked(10, offset+r); err != nil {
			return nil, nil, nil, err
		}
		t0 := time.Now()
		cur, created, err := st.Snapshot(b.ctx, snapshot.Meta{SessionID: "bench", Turn: offset + r + 1})
		if err != nil {
			return nil, nil, nil, err
		}
		inc = append(inc, time.Since(t0))
		// ChangedFiles counts against the latest snapshot, which the undo
		// of the previous round's restore may have made; 10 is the minimum.
		if !created || cur.ChangedFiles < 10 {
			return nil, nil, nil, fmt.Errorf("incremental snapshot: created=%v changed=%d, want >= 10", created, cur.ChangedFiles)
		}
		d, err := b.gitSnap(fmt.Sprint("inc", offset+r))
		if err != nil {
			return nil, nil, nil, err
		}
		gitInc = append(gitInc, d)

		t0 = time.Now()
		res, err := st.Restore(b.ctx, prev.ID)
		if err != nil {
			return nil, nil, nil, err
		}
		restores = append(restores, time.Since(t0))
		if len(res.Changed) != 10 {
			return nil, nil, nil, fmt.Errorf("restore changed %d files, want 10", len(res.Changed))
		}
		if timeGitRestore {
			// git's restore of the same: a safety commit, then the files of
			// the previous commit checked out.
			t0 = time.Now()
			if _, err := b.gitSnap("safety"); err != nil {
				return nil, nil, nil, err
			}
			if err := gitRun(b.gitDir, b.ws, "checkout", "-q", "HEAD~2", "--", "."); err != nil {
				return nil, nil, nil, err
			}
			b.gitRestores = append(b.gitRestores, time.Since(t0))
		}
		// Put the changes back so the next round starts from them.
		if _, err := st.Restore(b.ctx, cur.ID); err != nil {
			return nil, nil, nil, err
		}
		prev = cur
	}
	return inc, gitInc, restores, nil
}

// storeGrowth measures the store over n snapshots of small changes, in a
// fresh store with the watcher.
func (b *bench) storeGrowth(n int, goalRatio float64) error {
	growth, err := snapshot.Open(filepath.Join(b.tmp, "state-growth"), b.ws, snapshot.Options{Watch: true})
	if err != nil {
		return err
	}
	defer growth.Close()
	growth.WaitWatcher(b.ctx)
	if _, _, err := growth.Snapshot(b.ctx, snapshot.Meta{SessionID: "growth"}); err != nil {
		return err
	}
	if err := growth.Pack(); err != nil {
		return err
	}
	base, err := growth.Size()
	if err != nil {
		return err
	}
	var changeBytes int64
	t0 := time.Now()
	for i := 0; i < n; i++ {
		nb, err := b.g.appendLine(i)
		if err != nil {
			return err
		}
		changeBytes += nb
		if _, created, err := growth.Snapshot(b.ctx, snapshot.Meta{SessionID: "growth", Turn: i}); err != nil || !created {
			return fmt.Errorf("growth snapshot %d: created=%v err=%v", i, created, err)
		}
	}
	took := time.Since(t0)
	if err := growth.Pack(); err != nil {
		return err
	}
	after, err := growth.Size()
	if err != nil {
		return err
	}
	ratio := float64(after) / float64(base+changeBytes)
	fmt.Printf("store after %d small snapshots: %.1f MB vs one snapshot %.1f MB + changed files %.2f MB: %.3fx (goal <%.2gx: %s) [they took %s]\n",
		n, mbf(after), mbf(base), mbf(changeBytes), ratio, goalRatio, verdict(ratio < goalRatio), took.Round(time.Millisecond))
	return nil
}

// resetPeakRSS restarts the kernel's peak-RSS counter (Linux), so the next
// reading covers only what follows.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSSMB reads the process's peak RSS (VmHWM) in MB; 0 where unknown.
func peakRSSMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(rest), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}

func gitRun(gitDir, ws string, args ...string) error {
	full := append([]string{"--git-dir=" + gitDir, "--work-tree=" + ws,
		"-c", "user.name=bench", "-c", "user.email=bench@example.com",
		"-c", "gc.auto=0", "-c", "maintenance.auto=false", "-c", "commit.gpgsign=false"}, args...)
	cmd := exec.Command("git", full...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// loadAvg reads the 1-minute load average where the OS exposes it.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

func mbf(n int64) float64 { return float64(n) / (1 << 20) }

// missed counts goals not met; the command exits 1 if any was, so
// `make bench` reports the section as failed.
var missed int

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	missed++
	return "MISSED"
}

func dirSize(dir string) (int64, error) {
	var total int64
	err := filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
		return err
	})
	return total, err
}
