package osbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"

	"github.com/govibe/govibe/server/internal/gate/netproxy"
	"golang.org/x/sys/unix"
)

// runHelper locks the process down and runs argv. It returns only on
// failure (stage 2 execs; stage 1 exits with the command's status).
func runHelper(o helperOpts, argv []string) error {
	if o.Stage == 0 {
		if err := enterCgroup(o.Cgroup); err != nil {
			return fmt.Errorf("process limit: %w", err)
		}
		path, err := exec.LookPath(argv[0])
		if err != nil {
			return err
		}
		return syscall.Exec(path, argv, os.Environ())
	}
	if err := setLimits(o); err != nil {
		return err
	}
	if o.Stage == 1 {
		os.Exit(supervise(o, argv))
	}
	if o.Landlock != nil {
		if err := applyLandlock(o.Landlock); err != nil {
			return fmt.Errorf("landlock: %w", err)
		}
	}
	if err := loadFilter(o.DenyInet); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return err
	}
	return syscall.Exec(path, argv, os.Environ())
}

func setLimits(o helperOpts) error {
	set := func(res int, v uint64) error {
		if v == 0 {
			return nil
		}
		var cur unix.Rlimit
		if err := unix.Getrlimit(res, &cur); err == nil && cur.Max != unix.RLIM_INFINITY && cur.Max < v {
			v = cur.Max // never raise a limit the user already has
		}
		return unix.Setrlimit(res, &unix.Rlimit{Cur: v, Max: v})
	}
	if err := set(unix.RLIMIT_NPROC, uint64(o.NProc)); err != nil {
		return fmt.Errorf("process limit: %w", err)
	}
	if err := set(unix.RLIMIT_DATA, uint64(o.DataMB)<<20); err != nil {
		return fmt.Errorf("memory limit: %w", err)
	}
	return unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
}

// supervise runs the forwarders (the command's only way to the proxy) and
// the command as stage 2, and, as a subreaper, kills whatever the command
// left running when it ends: without a PID namespace that is what keeps a
// daemon from outliving it.
func supervise(o helperOpts, argv []string) int {
	if o.Subreap {
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if o.Forward != "" {
		for _, port := range []int{httpPort, socksPort} {
			ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
			if err != nil {
				fmt.Fprintln(os.Stderr, "govibe sandbox-exec: proxy forwarder:", err)
				return 126
			}
			go netproxy.Forward(ctx, ln, o.Forward)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "govibe sandbox-exec:", err)
		return 126
	}
	o2 := o
	o2.Stage, o2.Forward, o2.Subreap = 2, "", false
	full := helperArgv(exe, o2, argv)
	cmd := exec.Command(full[0], full[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "govibe sandbox-exec:", err)
		return 126
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err = cmd.Wait()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		} else {
			code = ee.ExitCode()
		}
	} else if err != nil {
		code = 126
	}
	if o.Subreap {
		reapAll()
	}
	return code
}

// reapAll kills and waits for every remaining descendant (they were
// reparented to this subreaper).
func reapAll() {
	for i := 0; i < 1000; i++ {

		pids := childrenOf(os.Getpid())
		if len(pids) == 0 {
			return
		}
		for _, p := range pids {
			_ = unix.Kill(p, unix.SIGKILL)
		}
		for {
			if _, err := unix.Wait4(-1, nil, unix.WNOHANG, nil); err != nil {
				break
			}
			if len(childrenOf(os.Getpid())) == 0 {
				break
			}
		}
	}
}

// childrenOf lists the direct children of pid from /proc.
func childrenOf(pid int) []int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range splitFields(string(data)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func splitFields(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if r == ' ' || r == '\n' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

func applyLandlock(l *landlockOpts) error {
	var rules []landlock.Rule
	add := func(paths []string, write bool) {
		for _, p := range paths {
			fi, err := os.Stat(p)
			if err != nil {
				continue
			}
			// A path listed by the sidecar may vanish before the rule is
			// added (another program's temporary folder): what is gone
			// needs no access.
			switch {
			case fi.IsDir() && write:
				rules = append(rules, landlock.RWDirs(p).WithRefer().IgnoreIfMissing())
			case fi.IsDir():
				rules = append(rules, landlock.RODirs(p).IgnoreIfMissing())
			case write:
				rules = append(rules, landlock.RWFiles(p).WithIoctlDev().IgnoreIfMissing())
			default:
				rules = append(rules, landlock.ROFiles(p).IgnoreIfMissing())
			}
		}
	}
	add(l.RO, false)
	add(l.RW, true)
	// No network rule: TCP bind and connect are refused (ABI 4 and up);
	// seccomp refuses the other Internet sockets.
	return landlock.V7.BestEffort().Restrict(rules...)
}
