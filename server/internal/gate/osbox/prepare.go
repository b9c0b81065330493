package osbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Prepared is one sandboxed invocation: run Path with Args (Args[0] is
// Path) and the command's environment plus Env, then call After.
type Prepared struct {
	Path   string
	Args   []string
	Env    []string
	Policy Policy
	// Mechanism that confines it.
	Mechanism Mechanism
	// Files are handed to the process as descriptors 3, 4, … (the
	// compiled seccomp filter); the caller closes them once it started.
	Files   []*os.File
	missing []string
	tmp     string
	cgroup  string
}

// ErrUnavailable is returned by Prepare when no mechanism works here.
var ErrUnavailable = errors.New("no command sandbox is available on this machine")

// Prepare wraps argv (the shell and its command line) in the sandbox st
// found, under policy p, starting in cwd.
func Prepare(st Status, p Policy, cwd string, argv []string) (*Prepared, error) {
	helper, err := helperPath()
	if err != nil {
		return nil, err
	}
	o := helperOpts{Stage: 2, NProc: p.MaxProcesses, DataMB: p.MaxMemoryMB}
	pr := &Prepared{Policy: p, Mechanism: st.Mechanism}
	switch st.Mechanism {
	case Bubblewrap:
		bw, err := exec.LookPath("bwrap")
		if err != nil {
			return nil, err
		}
		args, missing := bwrapArgs(p, cwd, helper)
		pr.missing = missing
		pr.Env = append(pr.Env, "TMPDIR=/tmp")
		if p.Network != nil {
			o.Stage, o.Forward = 1, insideProxy
			pr.Env = append(pr.Env, proxyEnv()...)
			pr.Path = bw
			pr.Args = append(append([]string{bw}, args...), "--")
			pr.Args = append(pr.Args, helperArgv(helper, o, argv)...)
			break
		}
		// Without network there is nothing to run inside but the command:
		// bwrap loads the filter and prlimit (util-linux) sets the limits,
		// which a child inherits, so no helper of ours starts (a Go
		// process costs more than bwrap itself).
		lim, err := exec.LookPath("prlimit")
		if err != nil {
			pr.Path = bw
			pr.Args = append(append([]string{bw}, args...), "--")
			pr.Args = append(pr.Args, helperArgv(helper, o, argv)...)
			break
		}
		ff, err := filterFile(false)
		if err != nil {
			return nil, err
		}
		pr.Files = []*os.File{ff}
		pr.Path = lim
		pr.Args = append([]string{lim}, limitArgs(p)...)
		pr.Args = append(append(append(pr.Args, bw, "--seccomp", "3"), args...), "--")
		pr.Args = append(pr.Args, argv...)
	case Landlock:
		// No namespaces: a private temporary folder stands in for /tmp,
		// the supervisor reaps daemons, and there is no network at all.
		tmp, err := os.MkdirTemp("", "govibe-sandbox-")
		if err != nil {
			return nil, err
		}
		pr.tmp = tmp
		ro, rw := landlockPaths(p, tmp)
		o.Stage, o.Subreap, o.DenyInet = 1, true, true
		o.Landlock = &landlockOpts{RO: ro, RW: rw}
		pr.Policy.Network = nil
		pr.Path = helper
		pr.Args = helperArgv(helper, o, argv)
		pr.Env = []string{"TMPDIR=" + tmp}
	default:
		return nil, ErrUnavailable
	}
	// For root, RLIMIT_NPROC is void: a pids cgroup holds the limit. The
	// helper joins it first, so every process of the sandbox counts.
	if cg := newPidsCgroup(p.MaxProcesses); cg != "" {
		pr.cgroup = cg
		procs := filepath.Join(cg, "cgroup.procs")
		if sh, err := exec.LookPath("sh"); err == nil {
			// The process moves itself in, then becomes the sandbox: a fixed
			// script, the paths and argv as arguments (nothing is spliced
			// into it). sh starts in a millisecond; a Go helper of ours
			// would cost ten.
			pr.Args = append([]string{sh, "-c", `echo $$ >"$0" && exec "$@"`, procs}, pr.Args...)
			pr.Path = sh
		} else {
			zero := helperArgv(helper, helperOpts{Stage: 0, Cgroup: cg}, pr.Args)
			pr.Path, pr.Args = zero[0], zero
		}
	}
	return pr, nil
}

// After cleans up once the command and everything it started are gone,
// returning the protected paths it had created and that were removed.
func (pr *Prepared) After() []string {
	if pr.cgroup != "" {
		// The sandbox's PID namespace is already dying with its init; the
		// group is emptied and removed off the command's path.
		go removeCgroup(pr.cgroup)
	}
	if pr.tmp != "" {
		os.RemoveAll(pr.tmp)
	}
	return Sweep(pr.missing)
}

// landlockPaths builds the fallback's allowlist: read everything but the
// masked paths and the secret files (each hole punched by listing its
// siblings, since Landlock can only grant), write the roots (minus the
// protected paths), the caches and the private temporary folder.
func landlockPaths(p Policy, tmp string) (ro, rw []string) {
	var holes []string
	holes = append(holes, HomeSecrets(p.Home)...)
	holes = append(holes, p.Mask...)
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		holes = append(holes, rt)
	}
	for _, r := range p.Roots {
		holes = append(holes, rootSecrets(r)...)
	}
	ro = allowExcept("/", holes)
	rw = append(rw, p.Caches...)
	rw = append(rw, tmp, "/dev/null", "/dev/zero", "/dev/tty", "/dev/full")
	if p.Access == WorkspaceWrite {
		// Landlock can only grant: a root with a hole in it could not have
		// files created at its top. So in the fallback a writable root is
		// writable whole, its protected paths and secret files included;
		// Status.Limits says so, and bubblewrap is what keeps them.
		rw = append(rw, p.Roots...)
	}
	return ro, rw
}

// allowExcept returns paths that together cover base except the holes:
// base itself when no hole is under it, else, for each level down to a
// hole, every sibling of the hole's ancestor. Landlock rules attach to an
// inode and cover what lies beneath, so this is the exact complement.
func allowExcept(base string, holes []string) []string {
	base = filepath.Clean(base)
	var under []string
	for _, h := range holes {
		h = filepath.Clean(h)
		if h == base {
			return nil
		}
		if rel, err := filepath.Rel(base, h); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			under = append(under, rel)
		}
	}
	if len(under) == 0 {
		return []string{base}
	}
	// Group the holes by their first component below base.
	next := map[string][]string{}
	for _, rel := range under {
		first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		next[first] = append(next[first], filepath.Join(base, rel))
	}
	entries, err := os.ReadDir(base)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		child := filepath.Join(base, e.Name())
		hs, ok := next[e.Name()]
		switch {
		case !ok:
			out = append(out, child)
		case e.IsDir():
			out = append(out, allowExcept(child, hs)...)
		}
		// A file that is itself a hole is left out.
	}
	sort.Strings(out)
	return out
}

// limitArgs are prlimit's options for p's limits (a limit of 0 is none).
func limitArgs(p Policy) []string {
	var a []string
	if p.MaxProcesses > 0 {
		n := strconv.FormatUint(capToHard(nprocLimit, uint64(p.MaxProcesses)), 10)
		a = append(a, "--nproc="+n+":"+n)
	}
	if p.MaxMemoryMB > 0 {
		n := strconv.FormatUint(capToHard(dataLimit, uint64(p.MaxMemoryMB)<<20), 10)
		a = append(a, "--data="+n+":"+n)
	}
	return append(a, "--core=0:0", "--")
}
