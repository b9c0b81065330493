package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"

	"github.com/govibe/govibe/server/internal/gate/osbox"
)

// Defaults used when a Spec leaves a field zero.
const (
	DefaultTimeout   = 120 * time.Second
	DefaultMaxOutput = 30000
	// drainGrace bounds how long output is still read after the process
	// group was killed; a descendant that escaped the group (setsid) must
	// not keep Run blocked on its open pipe.
	drainGrace = 2 * time.Second
)

// Spec describes one command.
type Spec struct {
	Command string
	// Cwd must be an existing directory; the caller confines it.
	Cwd     string
	Timeout time.Duration // 0 means DefaultTimeout
	// Env is added to the scrubbed parent environment ("KEY=VALUE").
	Env []string
	// Shell overrides the interpreter ("" = bash, or sh without bash, on
	// Unix; powershell on Windows).
	Shell string
	// MaxOutput caps stdout+stderr in characters (0 = DefaultMaxOutput).
	MaxOutput int
	// Stdin, when non-nil, is the command's whole standard input (hooks
	// read their JSON event from it); nil means the null device.
	Stdin []byte
	// Passthrough names variables kept even though they look like
	// credentials (govibe.shell.env.passthrough).
	Passthrough []string
	// OnScrub, when set, receives the names (never the values) of the
	// variables removed or stripped from the command's environment.
	OnScrub func(names []string)
	// Sandbox, when set, confines the command (package osbox) with the
	// mechanism SandboxStatus found; nil runs it unconfined.
	Sandbox       *osbox.Policy
	SandboxStatus osbox.Status
}

// Result is the structured outcome of a command. A non-zero exit, a timeout
// or a cancellation is reported here, not as an error.
type Result struct {
	Command    string   `json:"command"`
	Cwd        string   `json:"cwd"`
	ExitCode   int      `json:"exitCode"`
	DurationMs int64    `json:"durationMs"`
	Stdout     string   `json:"stdout"`
	Stderr     string   `json:"stderr"`
	Truncated  bool     `json:"truncated"`
	KeyErrors  []string `json:"keyErrors"`
	TimedOut   bool     `json:"timedOut,omitempty"`
	Canceled   bool     `json:"canceled,omitempty"`
	// Sandbox says how the command ran: "read-only", "workspace-write"
	// (with "; network: …" when granted) or "none" (unconfined).
	Sandbox string `json:"sandbox,omitempty"`
	// SandboxRemoved are protected paths the command created and the
	// sandbox removed after it.
	SandboxRemoved []string `json:"sandboxRemoved,omitempty"`
}

// Run executes spec and waits for it and every process it started to be
// gone. The error is non-nil only when the command could not be started.
// Run is safe to call from many goroutines at once.
func Run(ctx context.Context, spec Spec) (res Result, err error) {
	res = Result{Command: spec.Command, Cwd: spec.Cwd, ExitCode: -1, KeyErrors: []string{}}
	if spec.Timeout <= 0 {
		spec.Timeout = DefaultTimeout
	}
	if spec.MaxOutput <= 0 {
		spec.MaxOutput = DefaultMaxOutput
	}
	if fi, err := os.Stat(spec.Cwd); err != nil || !fi.IsDir() {
		return res, fmt.Errorf("working directory %q does not exist or is not a directory", spec.Cwd)
	}
	name, args, err := interpreter(spec.Shell, spec.Command)
	if err != nil {
		return res, err
	}
	env, scrubbed := Scrub(os.Environ(), spec.Passthrough)
	if spec.OnScrub != nil && len(scrubbed) > 0 {
		spec.OnScrub(scrubbed)
	}
	env = append(env, spec.Env...)
	var boxed *osbox.Prepared
	res.Sandbox = "none"
	if spec.Sandbox != nil {
		boxed, err = osbox.Prepare(spec.SandboxStatus, *spec.Sandbox, spec.Cwd, append([]string{name}, args...))
		if err != nil {
			return res, fmt.Errorf("preparing the sandbox: %w", err)
		}
		name, args = boxed.Path, boxed.Args[1:]
		env = append(env, boxed.Env...)
		res.Sandbox = boxed.Policy.Describe()
		defer func() { res.SandboxRemoved = boxed.After() }()
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = spec.Cwd
	cmd.Env = env
	if boxed != nil {
		cmd.ExtraFiles = boxed.Files
		defer func() {
			for _, f := range boxed.Files {
				f.Close()
			}
		}()
	}
	cmd.Stdin = nil // the null device: commands see EOF instead of hanging
	if spec.Stdin != nil {
		cmd.Stdin = bytes.NewReader(spec.Stdin)
	}
	setGroup(cmd)

	// Own pipes (rather than io.Writers) so that Wait returns as soon as the
	// shell exits, even while a background child still holds the pipe.
	outR, outW, err := os.Pipe()
	if err != nil {
		return res, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return res, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	stdout := newCapBuffer(spec.MaxOutput)
	stderr := newCapBuffer(spec.MaxOutput)

	start := time.Now()
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{outR, outW, errR, errW} {
			f.Close()
		}
		return res, fmt.Errorf("starting %s: %w", name, err)
	}
	outW.Close()
	errW.Close()

	var readers sync.WaitGroup
	readers.Add(2)
	go func() { defer readers.Done(); io.Copy(stdout, outR) }()
	go func() { defer readers.Done(); io.Copy(stderr, errR) }()

	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()

	timer := time.NewTimer(spec.Timeout)
	defer timer.Stop()
	var werr error
	select {
	case werr = <-waitErr:
	case <-timer.C:
		res.TimedOut = true
		killGroup(cmd)
		werr = <-waitErr
	case <-ctx.Done():
		res.Canceled = true
		killGroup(cmd)
		werr = <-waitErr
	}
	// The shell is gone; whatever it left running in its group goes too.
	killGroup(cmd)

	drained := make(chan struct{})
	go func() { readers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(drainGrace):
		outR.Close()
		errR.Close()
		<-drained
	}
	outR.Close()
	errR.Close()

	res.DurationMs = time.Since(start).Milliseconds()
	var exitErr *exec.ExitError
	switch {
	case werr == nil:
		res.ExitCode = 0
	case errors.As(werr, &exitErr):
		res.ExitCode = exitErr.ExitCode()
	}
	res.Stdout, res.Stderr, res.Truncated = finish(stdout, stderr, spec.MaxOutput)
	res.KeyErrors = KeyErrors(res.Stdout + "\n" + res.Stderr)
	return res, nil
}

func interpreter(override, command string) (string, []string, error) {
	if runtime.GOOS == "windows" {
		sh := override
		if sh == "" {
			sh = "powershell"
			if p, err := exec.LookPath("pwsh"); err == nil {
				sh = p
			}
		}
		p, err := exec.LookPath(sh)
		if err != nil {
			return "", nil, fmt.Errorf("shell %q not found: %w", sh, err)
		}
		return p, []string{"-NoProfile", "-NonInteractive", "-Command", command}, nil
	}
	candidates := []string{"bash", "sh"}
	if override != "" {
		candidates = []string{override}
	}
	for _, c := range candidates {
		if p, err := exec.LookPath(c); err == nil {
			return p, []string{"-c", command}, nil
		}
	}
	return "", nil, fmt.Errorf("no shell found (tried %v)", candidates)
}
