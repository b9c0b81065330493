package osbox

import (
	"encoding/json"
	"fmt"
	"os"
)

// HelperArg is argv[1] of the helper: the sidecar (or a test binary, which
// links this package) re-runs itself with it inside the sandbox. Package
// init dispatches on it, so any binary that links osbox can be the helper,
// and `govibe sandbox-exec` is the same code under a readable name.
const HelperArg = "__govibe_sandbox_exec__"

// helperOpts is what the sidecar hands the helper, as JSON in argv[2]. It
// holds paths and numbers only, never a credential.
type helperOpts struct {
	// Stage 1 supervises: it runs the network forwarders and, without a
	// PID namespace, reaps what the command leaves behind; stage 2 locks
	// itself down and execs the command.
	Stage    int           `json:"stage"`
	NProc    int           `json:"nproc,omitempty"`
	DataMB   int           `json:"dataMB,omitempty"`
	DenyInet bool          `json:"denyInet,omitempty"`
	Landlock *landlockOpts `json:"landlock,omitempty"`
	// Forward is the proxy socket inside the sandbox ("" = no network).
	Forward string `json:"forward,omitempty"`
	Subreap bool   `json:"subreap,omitempty"`
	// Cgroup (stage 0, outside the sandbox): join this pids cgroup, then
	// exec the rest of argv (bwrap…).
	Cgroup string `json:"cgroup,omitempty"`
}

// landlockOpts are the fallback's rules: every path listed is granted,
// everything else is refused (an allowlist, built by allowExcept).
type landlockOpts struct {
	RO []string `json:"ro"`
	RW []string `json:"rw"`
}

func init() {
	if len(os.Args) > 2 && os.Args[1] == HelperArg {
		os.Exit(HelperMain(os.Args[2:]))
	}
}

// HelperMain runs the helper with args = [opts-json, "--", argv...] and
// returns the exit code to use when it could not exec the command.
func HelperMain(args []string) int {
	if len(args) < 3 || args[1] != "--" {
		fmt.Fprintln(os.Stderr, "govibe sandbox-exec: usage: sandbox-exec OPTIONS -- COMMAND [ARG...]")
		return 125
	}
	var o helperOpts
	if err := json.Unmarshal([]byte(args[0]), &o); err != nil {
		fmt.Fprintln(os.Stderr, "govibe sandbox-exec: bad options:", err)
		return 125
	}
	if err := runHelper(o, args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "govibe sandbox-exec:", err)
		return 126
	}
	return 0
}

func helperArgv(exe string, o helperOpts, argv []string) []string {
	b, _ := json.Marshal(o)
	return append([]string{exe, HelperArg, string(b), "--"}, argv...)
}
