package tools

import (
	"context"
	"time"

	"github.com/govibe/govibe/server/internal/gate/osbox"
	"github.com/govibe/govibe/server/internal/workspace/shell"
)

// shellRun is one command as run_shell_command runs it, so a denied
// command can run again with more granted.
type shellRun struct {
	env     *Env
	command string
	cwd     string
	roots   []string
	timeout time.Duration
}

// do runs the command under grant g: in the OS sandbox when there is one
// and the grant is not Outside, with the proxy started for it (refusing
// every domain when g has no network, so the denial names the domain).
func (r shellRun) do(ctx context.Context, g SandboxGrant) (shell.Result, Denial, error) {
	env := r.env
	spec := shell.Spec{Command: r.command, Cwd: r.cwd, Timeout: r.timeout, Shell: env.Settings.Shell,
		Passthrough: env.Settings.EnvPassthrough, OnScrub: env.OnEnvScrub}
	var stop func() []string
	if sb := env.Sandbox; sb.On() && !g.Outside {
		p := sb.policy(r.roots, g)
		// Only a command granted network gets the proxy: its forwarder is a
		// process of ours inside the sandbox, which costs more than the
		// sandbox itself (see sandboxbench). Without it, what a command
		// wanted is read from its output (findDenial).
		if g.Network && sb.Proxy != nil && sb.Status.Mechanism == osbox.Bubblewrap {
			sock, st, err := sb.Proxy(g.Network)
			if err != nil {
				return shell.Result{}, Denial{}, err
			}
			stop = st
			var domains []string
			if g.Network && sb.Domains != nil {
				domains = sb.Domains()
			}
			p.Network = &osbox.Network{Proxy: sock, Domains: domains}
		}
		spec.Sandbox, spec.SandboxStatus = &p, sb.Status
	}
	res, err := shell.Run(ctx, spec)
	var refused []string
	if stop != nil {
		refused = stop()
	}
	if err != nil {
		return res, Denial{}, err
	}
	var d Denial
	if spec.Sandbox != nil && (res.ExitCode != 0 || len(refused) > 0 || len(res.SandboxRemoved) > 0) {
		d = findDenial(res.Stdout+"\n"+res.Stderr, g, refused, res.SandboxRemoved)
	}
	return res, d, nil
}
