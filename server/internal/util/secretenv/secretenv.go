// Package secretenv keeps credentials out of the environment block of the
// process that runs the agent's commands.
//
// Scrubbing a command's own environment is not enough: on Linux a command
// can read its parent's start-up environment from /proc/$PPID/environ (and
// on macOS with ps eww). That block is fixed at exec time; os.Unsetenv does
// not change it. So, before anything else runs, the sidecar and `govibe
// exec` re-execute themselves (same pid, same stdio, same arguments) with
// the credentials removed, and hand the removed variables over through an
// inherited file descriptor. The new image reads them back into the Go
// process's own environment (os.Setenv, which leaves the kernel's block
// alone), closes the descriptor, and carries on as before: the engine
// still sees its key and proxy credentials, children are scrubbed again by
// package shell, and /proc/<pid>/environ shows neither.
package secretenv

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/govibe/govibe/server/internal/workspace/shell"
)

// fdVar names the descriptor that holds the removed variables in the
// re-executed process.
const fdVar = "GOVIBE_HELD_ENV_FD"

// maxHeld caps what is read back from the descriptor.
const maxHeld = 8 << 20

// Hide re-executes the running binary without credential-like variables
// in its environment block; also names variables held whatever their
// shape (the one `govibe exec --api-key-env` names). It returns (without re-executing) when there
// is nothing to hide, when this is already the re-executed image, or when
// re-executing is not possible (the error says why; the caller warns and
// continues). On success it does not return.
func Hide(also ...string) error {
	if fd := os.Getenv(fdVar); fd != "" {
		nameProcess()
		return restore(fd)
	}
	if !supported {
		return nil
	}
	environ := os.Environ()
	// Everything outside the commands' allowlist is held, not only what
	// looks like a credential: a shape nobody listed must not sit in
	// /proc/<pid>/environ either.
	kept, _ := shell.Scrub(environ, nil)
	kept, named := without(kept, also)
	if len(kept) == len(environ) && !named {
		return nil
	}
	held := heldVars(environ, kept)
	data, err := json.Marshal(held)
	if err != nil {
		return err
	}
	fd, err := handOver(data)
	if err != nil {
		return fmt.Errorf("keeping credentials out of the environment: %w", err)
	}
	err = reexec(append(kept, fdVar+"="+strconv.Itoa(fd)))
	closeFD(fd)
	return fmt.Errorf("keeping credentials out of the environment: re-executing: %w", err)
}

// heldVars are the variables of environ that kept lacks or changed (a
// proxy whose credentials were stripped), with their original values.
func heldVars(environ, kept []string) map[string]string {
	in := make(map[string]bool, len(kept))
	for _, kv := range kept {
		in[kv] = true
	}
	held := map[string]string{}
	for _, kv := range environ {
		if in[kv] {
			continue
		}
		name, val, _ := strings.Cut(kv, "=")
		held[name] = val
	}
	return held
}

// without drops the named variables from environ, reporting whether any was there.
func without(environ, names []string) ([]string, bool) {
	if len(names) == 0 {
		return environ, false
	}
	out := environ[:0:0]
	dropped := false
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			if n != "" && name == n {
				drop = true
			}
		}
		if drop {
			dropped = true
			continue
		}
		out = append(out, kv)
	}
	return out, dropped
}

// restore reads the held variables back into the process environment.
func restore(fdText string) error {
	os.Unsetenv(fdVar)
	fd, err := strconv.Atoi(fdText)
	if err != nil || fd < 3 {
		return fmt.Errorf("%s=%q is not a descriptor this program passed", fdVar, fdText)
	}
	f := os.NewFile(uintptr(fd), "held-env")
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxHeld))
	if err != nil {
		return fmt.Errorf("reading held environment: %w", err)
	}
	var held map[string]string
	if err := json.Unmarshal(data, &held); err != nil {
		return fmt.Errorf("reading held environment: %w", err)
	}
	for k, v := range held {
		os.Setenv(k, v)
	}
	return nil
}
