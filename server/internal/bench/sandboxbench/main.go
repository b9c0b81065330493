// Command sandboxbench measures what the OS sandbox costs a command, against
// the same command unsandboxed in the same run: the median start of a
// trivial command (goal: at most 15 ms more), and a `go test` on a warm
// build cache (goal: at most 1.2× the unsandboxed time). Exit status 1
// when a goal is missed, 2 when the sandbox is not available.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/govibe/govibe/server/internal/gate/netproxy"
	"github.com/govibe/govibe/server/internal/gate/osbox"
	"github.com/govibe/govibe/server/internal/workspace/shell"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

func main() {
	runs := flag.Int("runs", 41, "trivial commands per side")
	goRuns := flag.Int("go-runs", 5, "go test runs per side")
	goalMS := flag.Float64("goal-start-ms", 15, "goal: sandboxed start at most this many ms more")
	goalGo := flag.Float64("goal-go", 1.2, "goal: sandboxed go test at most this times unsandboxed")
	flag.Parse()
	st := osbox.Detect()
	if !st.Available() {
		fmt.Println("sandbox not available:", st.Reason)
		os.Exit(2)
	}
	fmt.Printf("mechanism: %s\n", st.Mechanism)
	ws, err := workspace()
	if err != nil {
		fmt.Println("workspace:", err)
		os.Exit(2)
	}
	defer os.RemoveAll(ws)
	home, _ := os.UserHomeDir()
	sb := tools.NewSandboxEnv(st, nil, 1024, 8192)
	sb.Home = home
	ro := sb.Policy([]string{ws}, tools.SandboxGrant{})
	wr := sb.Policy([]string{ws}, tools.SandboxGrant{Write: true})

	failed := false
	plain := median(*runs, func() { mustRun(shell.Spec{Command: "true", Cwd: ws}) })
	boxed := median(*runs, func() { mustRun(shell.Spec{Command: "true", Cwd: ws, Sandbox: &ro, SandboxStatus: st}) })
	extra := ms(boxed - plain)
	fmt.Printf("start of `true`: unsandboxed %.1f ms, sandboxed %.1f ms, +%.1f ms (goal ≤ +%.0f ms) %s\n",
		ms(plain), ms(boxed), extra, *goalMS, verdict(extra <= *goalMS, &failed))

	// With the proxy (a command granted network, or one whose refused
	// domains are to be named): the helper runs the forwarder inside.
	sb.Proxy = func(bool) (string, func() []string, error) {
		return netproxy.Ephemeral(func(string) bool { return false })
	}
	sock, stop, err := sb.Proxy(false)
	if err != nil {
		fmt.Println("proxy:", err)
		os.Exit(2)
	}
	np := ro
	np.Network = &osbox.Network{Proxy: sock}
	proxied := median(*runs, func() { mustRun(shell.Spec{Command: "true", Cwd: ws, Sandbox: &np, SandboxStatus: st}) })
	stop()
	fmt.Printf("start of `true` with the proxy's forwarder: %.1f ms, +%.1f ms (reported)\n", ms(proxied), ms(proxied-plain))

	test := "go test -count=1 ./..."
	mustRun(shell.Spec{Command: test, Cwd: ws, Timeout: 5 * time.Minute})                                  // warm the cache
	mustRun(shell.Spec{Command: test, Cwd: ws, Timeout: 5 * time.Minute, Sandbox: &wr, SandboxStatus: st}) // and the sandbox's view of it
	gp := median(*goRuns, func() { mustRun(shell.Spec{Command: test, Cwd: ws, Timeout: 5 * time.Minute}) })
	gb := median(*goRuns, func() {
		mustRun(shell.Spec{Command: test, Cwd: ws, Timeout: 5 * time.Minute, Sandbox: &wr, SandboxStatus: st})
	})
	ratio := float64(gb) / float64(gp)
	fmt.Printf("go test, warm cache: unsandboxed %.0f ms, sandboxed %.0f ms, %.2f× (goal ≤ %.1f×) %s\n",
		ms(gp), ms(gb), ratio, *goalGo, verdict(ratio <= *goalGo, &failed))
	if failed {
		os.Exit(1)
	}
}

func verdict(ok bool, failed *bool) string {
	if ok {
		return "PASS"
	}
	*failed = true
	return "FAIL"
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func mustRun(s shell.Spec) {
	res, err := shell.Run(context.Background(), s)
	if err != nil || res.ExitCode != 0 {
		fmt.Printf("command %q failed: %v exit %d\n%s%s\n", s.Command, err, res.ExitCode, res.Stdout, res.Stderr)
		os.Exit(2)
	}
}

// median runs f n times (after one warm-up) and returns the median time.
func median(n int, f func()) time.Duration {
	f()
	ds := make([]time.Duration, n)
	for i := range ds {
		t := time.Now()
		f()
		ds[i] = time.Since(t)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[n/2]
}

// workspace is a small Go module with a package and its test.
func workspace() (string, error) {
	dir, err := os.MkdirTemp("", "sandboxbench-")
	if err != nil {
		return "", err
	}
	files := map[string]string{
		"go.mod":       "module example.com/bench\n\ngo 1.21\n",
		"calc.go":      "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
		"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return "", err
		}
	}
	if _, err := exec.LookPath("go"); err != nil {
		return "", err
	}
	return dir, nil
}
