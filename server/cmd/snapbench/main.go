// Command snapbench measures the snapshot engine against the git CLI doing
// the same work on an equivalent shadow repository, in the same run:
//
//	go run ./server/cmd/snapbench [-files 20000] [-mb 200]
//
// It builds a synthetic workspace (source trees plus an ignored
// node_modules), then prints the first and incremental snapshot times as
// ratios to `git add -A && git commit`, the time to restore 10 files, and
// how the store grows over 100 small snapshots.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/snapshot"
)

func main() {
	files := flag.Int("files", 20000, "number of files in the workspace")
	mb := flag.Int("mb", 200, "approximate workspace size in MB")
	reps := flag.Int("reps", 5, "repetitions of the incremental and restore measurements (median is printed)")
	keep := flag.Bool("keep", false, "keep the temporary directory")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the measured part to this file")
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
	if *files < 100 || *mb < 1 || *reps < 1 {
		fmt.Fprintln(os.Stderr, "snapbench: need -files >= 100, -mb >= 1, -reps >= 1")
		os.Exit(2)
	}
	if _, err := exec.LookPath("git"); err != nil {
		fmt.Fprintln(os.Stderr, "snapbench: the git CLI is needed as the reference")
		os.Exit(1)
	}
	if err := run(*files, *mb, *reps, *keep); err != nil {
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

func run(nFiles, mb, reps int, keep bool) error {
	tmp, err := os.MkdirTemp("", "snapbench-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("keeping", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	ws := filepath.Join(tmp, "ws")
	g := newGen(ws)
	start := time.Now()
	if err := g.build(nFiles, int64(mb)<<20); err != nil {
		return err
	}
	fmt.Printf("machine: %d CPUs, load average %s\n", runtime.NumCPU(), loadAvg())
	fmt.Printf("workspace: %d files (%d tracked, %d in ignored node_modules), %.1f MB, built in %s\n",
		g.total, len(g.tracked), g.total-len(g.tracked), float64(g.bytes)/(1<<20), time.Since(start).Round(time.Millisecond))
	// Files younger than the racy window are re-read by both tools on the
	// next run; a real workspace is not all written a second ago.
	time.Sleep(2100 * time.Millisecond)

	ctx := context.Background()
	st, err := snapshot.Open(filepath.Join(tmp, "state"), ws, snapshot.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	gitDir := filepath.Join(tmp, "git-shadow")
	if out, err := exec.Command("git", "init", "-q", "--bare", gitDir).CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	gitSnap := func(msg string) (time.Duration, error) {
		t0 := time.Now()
		if err := gitRun(gitDir, ws, "add", "-A"); err != nil {
			return 0, err
		}
		err := gitRun(gitDir, ws, "commit", "-q", "--allow-empty", "-m", msg)
		return time.Since(t0), err
	}

	// First snapshot.
	t0 := time.Now()
	first, _, err := st.Snapshot(ctx, snapshot.Meta{SessionID: "bench", Message: "first"})
	if err != nil {
		return err
	}
	oursFirst := time.Since(t0)
	t0 = time.Now()
	if err := st.Pack(); err != nil {
		return err
	}
	packTime := time.Since(t0)
	gitFirst, err := gitSnap("first")
	if err != nil {
		return err
	}
	ratio := oursFirst.Seconds() / gitFirst.Seconds()
	fmt.Printf("first snapshot:         ours %8s  git %8s  ratio %.2fx  (goal <=2x: %s)  [%d files stored, %d skipped]\n",
		ms(oursFirst), ms(gitFirst), ratio, verdict(ratio <= 2), first.ChangedFiles, first.SkippedCount)
	fmt.Printf("  background pack after it: %s (off the snapshot's path)\n", ms(packTime))

	// Incremental snapshots and restores of 10 changed files.
	var oursInc, gitInc, restores []time.Duration
	prev := first
	for r := 0; r < reps; r++ {
		if err := g.changeTracked(10, r); err != nil {
			return err
		}
		t0 = time.Now()
		cur, created, err := st.Snapshot(ctx, snapshot.Meta{SessionID: "bench", Turn: r + 1})
		if err != nil {
			return err
		}
		oursInc = append(oursInc, time.Since(t0))
		// ChangedFiles counts against the latest snapshot, which the undo
		// of the previous round's restore may have made; 10 is the minimum.
		if !created || cur.ChangedFiles < 10 {
			return fmt.Errorf("incremental snapshot: created=%v changed=%d, want >= 10", created, cur.ChangedFiles)
		}
		d, err := gitSnap(fmt.Sprint("inc", r))
		if err != nil {
			return err
		}
		gitInc = append(gitInc, d)

		t0 = time.Now()
		res, err := st.Restore(ctx, prev.ID)
		if err != nil {
			return err
		}
		restores = append(restores, time.Since(t0))
		if len(res.Changed) != 10 {
			return fmt.Errorf("restore changed %d files, want 10", len(res.Changed))
		}
		// Put the changes back so the next round starts from them.
		if _, err := st.Restore(ctx, cur.ID); err != nil {
			return err
		}
		prev = cur
	}
	mo, mg, mr := median(oursInc), median(gitInc), median(restores)
	ratio = mo.Seconds() / mg.Seconds()
	fmt.Printf("incremental (10 files): ours %8s  git %8s  ratio %.2fx  (goal <=1.0x and <300ms: %s)\n",
		ms(mo), ms(mg), ratio, verdict(ratio <= 1 && mo < 300*time.Millisecond))
	fmt.Printf("restore 10 files:       ours %8s  (incl. safety snapshot; goal <200ms: %s)\n", ms(mr), verdict(mr < 200*time.Millisecond))

	// Store growth over 100 snapshots of small changes, in a fresh store.
	growth, err := snapshot.Open(filepath.Join(tmp, "state-growth"), ws, snapshot.Options{})
	if err != nil {
		return err
	}
	defer growth.Close()
	if _, _, err := growth.Snapshot(ctx, snapshot.Meta{SessionID: "growth"}); err != nil {
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
	t0 = time.Now()
	for i := 0; i < 100; i++ {
		n, err := g.appendLine(i)
		if err != nil {
			return err
		}
		changeBytes += n
		if _, created, err := growth.Snapshot(ctx, snapshot.Meta{SessionID: "growth", Turn: i}); err != nil || !created {
			return fmt.Errorf("growth snapshot %d: created=%v err=%v", i, created, err)
		}
	}
	hundred := time.Since(t0)
	if err := growth.Pack(); err != nil {
		return err
	}
	after, err := growth.Size()
	if err != nil {
		return err
	}
	ratio = float64(after) / float64(base+changeBytes)
	fmt.Printf("store after 100 small snapshots: %.1f MB vs one snapshot %.1f MB + changed files %.2f MB: %.3fx (goal <1.5x: %s) [100 snapshots took %s]\n",
		mbf(after), mbf(base), mbf(changeBytes), ratio, verdict(ratio < 1.5), hundred.Round(time.Millisecond))
	fmt.Printf("load average at the end: %s (ratios compare tools measured back to back, so they hold up better than absolute times on a busy machine)\n", loadAvg())
	if gs, err := dirSize(gitDir); err == nil {
		fmt.Printf("  for reference, git's shadow repository (loose objects, %d commits) is %.1f MB\n", reps+1, mbf(gs))
	}
	return nil
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

// gen builds a deterministic synthetic workspace.
type gen struct {
	root    string
	rng     *rand.Rand
	tracked []string // relative paths of files a snapshot stores
	total   int
	bytes   int64
}

func newGen(root string) *gen { return &gen{root: root, rng: rand.New(rand.NewPCG(1, 2))} }

var words = strings.Fields(`func return if else for range var const type struct interface package import
	map string int error nil true false make append len cap defer go select case default switch break
	continue chan the a to of and in is for on with as by value result config client server request
	response handler context logger buffer index count total name path file data items user session`)

// text makes source-like text of about n bytes; compresses like real code.
func (g *gen) text(n int) []byte {
	b := make([]byte, 0, n+64)
	indent := 0
	for len(b) < n {
		b = append(b, strings.Repeat("\t", indent)...)
		w := 3 + g.rng.IntN(9)
		for i := 0; i < w; i++ {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, words[g.rng.IntN(len(words))]...)
			if g.rng.IntN(6) == 0 {
				b = append(b, fmt.Sprint(g.rng.IntN(1000))...)
			}
		}
		b = append(b, '\n')
		indent = max(0, min(4, indent+g.rng.IntN(3)-1))
	}
	return b[:n]
}

func (g *gen) write(rel string, data []byte, tracked bool) error {
	p := filepath.Join(g.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return err
	}
	g.total++
	g.bytes += int64(len(data))
	if tracked {
		g.tracked = append(g.tracked, rel)
	}
	return nil
}

// build writes 60% of the files (and bytes) as source trees and the rest
// in node_modules, ignored by the root .gitignore. About 3% of tracked
// files are incompressible binary assets.
func (g *gen) build(nFiles int, totalBytes int64) error {
	if err := g.write(".gitignore", []byte("node_modules/\n*.log\n"), true); err != nil {
		return err
	}
	nTracked := nFiles * 6 / 10
	avg := int(totalBytes / int64(nFiles))
	size := func() int { // skewed: many small files, a few large ones
		f := g.rng.ExpFloat64()
		return max(16, min(int(f*float64(avg)), 40*avg))
	}
	for i := 1; i < nTracked; i++ {
		dir := fmt.Sprintf("src/mod%02d/pkg%03d", i%23, (i/23)%37)
		if i%29 == 0 {
			data := make([]byte, size())
			for j := range data {
				data[j] = byte(g.rng.Uint32())
			}
			if err := g.write(fmt.Sprintf("assets/img%05d.png", i), data, true); err != nil {
				return err
			}
			continue
		}
		if err := g.write(fmt.Sprintf("%s/file%05d.go", dir, i), g.text(size()), true); err != nil {
			return err
		}
	}
	for i := nTracked; i < nFiles; i++ {
		rel := fmt.Sprintf("node_modules/dep%03d/lib/m%05d.js", i%150, i)
		if err := g.write(rel, g.text(size()), false); err != nil {
			return err
		}
	}
	return nil
}

// changeTracked rewrites n distinct tracked source files.
func (g *gen) changeTracked(n, round int) error {
	picked := map[string]bool{}
	for k := 0; len(picked) < n; k++ {
		rel := g.tracked[(round*1000+k)*7919%len(g.tracked)]
		if picked[rel] || !strings.HasSuffix(rel, ".go") {
			continue
		}
		picked[rel] = true
		p := filepath.Join(g.root, filepath.FromSlash(rel))
		old, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, append(old, fmt.Sprintf("// change %d\n", round)...), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// appendLine makes one small edit and returns the new size of the file.
func (g *gen) appendLine(i int) (int64, error) {
	rel := g.tracked[1+(i*104729)%(len(g.tracked)-1)]
	p := filepath.Join(g.root, filepath.FromSlash(rel))
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	_, err = fmt.Fprintf(f, "// edit %d\n", i)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
