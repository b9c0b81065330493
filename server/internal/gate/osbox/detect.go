package osbox

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"
)

// Mechanism is how commands are confined on this machine.
type Mechanism string

const (
	// Bubblewrap: mount, PID, network and user namespaces plus seccomp.
	Bubblewrap Mechanism = "bubblewrap"
	// Landlock: the kernel's path and TCP allowlist plus seccomp, where
	// bwrap is missing. No PID namespace (a subreaper stands in) and no
	// network at all (there is no namespace to put the proxy in).
	Landlock Mechanism = "landlock"
	// None: no sandbox can be had; every command asks.
	None Mechanism = "none"
)

// Status is what Detect found.
type Status struct {
	Mechanism Mechanism `json:"mechanism"`
	// Reason, for None, says in plain words why and how to enable one;
	// for Landlock, why bubblewrap could not be used.
	Reason string `json:"reason,omitempty"`
}

// Limits says what this mechanism does not promise, for the notice shown
// once per session ("" = nothing beyond the documented non-promises).
func (s Status) Limits() string {
	if s.Mechanism == Landlock {
		return "bubblewrap cannot be used (" + s.Reason + "), so commands run under the Landlock fallback: they get no network at all, and a command allowed to write may also change .git, .vscode and .env files in the workspace. Install bubblewrap for the full sandbox."
	}
	return ""
}

// Available reports whether commands can run sandboxed.
func (s Status) Available() bool { return s.Mechanism != None && s.Mechanism != "" }

// MechanismEnv forces a mechanism (tests, and users who want to try the
// fallback): "bubblewrap", "landlock" or "none".
const MechanismEnv = "GOVIBE_SANDBOX_MECHANISM"

var (
	detectOnce sync.Once
	detected   Status
)

// Detect finds the strongest mechanism that works here, once per process:
// bwrap must be installed and able to create the namespaces (a trial run),
// else Landlock must be enabled in the kernel.
func Detect() Status {
	detectOnce.Do(func() { detected = detect(os.Getenv(MechanismEnv)) })
	return detected
}

func detect(force string) Status {
	if runtime.GOOS != "linux" {
		return Status{Mechanism: None, Reason: "GoVibe's command sandbox is available on Linux only for now (macOS' Seatbelt profile is generated but not yet tested on a Mac); every command asks before it runs. Set govibe.sandbox.enabled to false to silence this."}
	}
	if force == string(None) {
		return Status{Mechanism: None, Reason: "the sandbox was turned off with " + MechanismEnv + "=none; every command asks before it runs."}
	}
	bwrapWhy := bwrapWorks()
	if bwrapWhy == "" && force != string(Landlock) {
		return Status{Mechanism: Bubblewrap}
	}
	if llWhy := landlockWorks(); llWhy == "" {
		if bwrapWhy == "" {
			bwrapWhy = MechanismEnv + "=landlock chose the fallback"
		}
		return Status{Mechanism: Landlock, Reason: bwrapWhy}
	} else if force == string(Landlock) {
		return Status{Mechanism: None, Reason: "Landlock was asked for but " + llWhy}
	} else {
		return Status{Mechanism: None, Reason: "no command sandbox is available: " + bwrapWhy + ", and " + llWhy +
			". Every command asks before it runs. To enable the sandbox, install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap) and make sure unprivileged user namespaces are enabled (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap)."}
	}
}

// bwrapWorks runs bwrap once with the namespaces a command gets; "" means
// it works, else why not.
func bwrapWorks() string {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return "bubblewrap (bwrap) is not installed"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--disable-userns", "--die-with-parent", "--", "true")
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := string(out)
		if len(msg) > 200 {
			msg = msg[:200]
		}
		return "bubblewrap cannot create namespaces here (" + err.Error() + ": " + msg + ")"
	}
	return ""
}
