package tools

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/shell"
)

//go:embed descriptions/run_shell_command.md
var runShellDesc string

type runShellArgs struct {
	Command   string `json:"command" jsonschema:"required" jsonschema_description:"The command line to run."`
	Cwd       string `json:"cwd,omitempty" jsonschema_description:"Working directory inside the workspace; defaults to the first root."`
	TimeoutMs int    `json:"timeoutMs,omitempty" jsonschema:"minimum=1" jsonschema_description:"Timeout in milliseconds (default 120000; capped by the user's maximum)."`
}

// RunShellCommand returns the run_shell_command tool.
func RunShellCommand() Tool {
	return &define[runShellArgs]{
		name: "run_shell_command", desc: runShellDesc,
		traits:   RunsCommands,
		defaults: func() runShellArgs { return runShellArgs{} },
		run:      runShell,
	}
}

func runShell(ctx context.Context, env *Env, a runShellArgs) (Result, error) {
	if r := editsDisabled(env, "run_shell_command"); r != nil {
		return *r, nil
	}
	if err := needTracker(env); err != nil {
		return Result{}, err
	}
	if strings.TrimSpace(a.Command) == "" {
		return FailShown("run_shell_command: command must not be empty", env.Tr("%s: the command is empty.", "run_shell_command")), nil
	}
	cwd, sb, fail := resolve(env, a.Cwd)
	if fail != nil {
		return *fail, nil
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return notFound(env, sb, "folder", a.Cwd, cwd), nil
	}
	timeout := time.Duration(env.Settings.ShellTimeoutMs) * time.Millisecond
	if timeout <= 0 {
		timeout = shell.DefaultTimeout
	}
	if a.TimeoutMs > 0 {
		timeout = time.Duration(a.TimeoutMs) * time.Millisecond
	}
	capped := false
	if env.Settings.ShellMaxTimeout > 0 {
		if m := time.Duration(env.Settings.ShellMaxTimeout) * time.Millisecond; timeout > m {
			timeout, capped = m, true
		}
	}
	command := a.Command
	var note string
	var auto *AutoApproval
	// Without an approver (ConfirmShell off) the caller vouches for the
	// command: it gets what an approved command gets.
	grant := SandboxGrant{Write: true, Network: true}
	if env.Settings.ConfirmShell {
		if env.Approver == nil {
			return FailShown("run_shell_command needs confirmation; not approved (no one is available to approve it); nothing was run",
				env.Tr("Not run: the command needs approval and no one is available to approve it.")), nil
		}
		dec, err := env.Approver.ConfirmShell(ctx, ShellProposal{Command: command, Cwd: cwd, ToolCallID: CallID(ctx)})
		if err != nil {
			return Result{}, fmt.Errorf("confirming shell command: %w", err)
		}
		if !dec.Allowed {
			msg := "the user denied running the command; nothing was run"
			if !dec.ByUser {
				// A policy refused it (headless, dangerous, a rule): no
				// person saw it, so the model must not wait on one.
				msg = "the command was refused before running; nothing was run"
			}
			if dec.Reason != "" {
				msg += "\nReason: " + dec.Reason
			}
			r := Fail(msg)
			r.Display = dec.Display
			if r.Display == "" {
				r.Display = env.Tr("Not run: the command was refused.")
			}
			if dec.ByUser {
				r.Meta = Declined{Declined: true, Reason: dec.Reason}
			}
			return r, nil
		}
		auto, grant = dec.Auto, dec.Grant
		if c := strings.TrimSpace(dec.Command); c != "" && c != strings.TrimSpace(command) {
			note = "The user edited the command before running it; it ran as shown above."
			command = dec.Command
		}
	}
	beforeMutation(ctx, env)
	run := shellRun{env: env, command: command, cwd: cwd, roots: env.Roots, timeout: timeout}
	res, denial, err := run.do(ctx, grant)
	if err != nil {
		return FailShown("run_shell_command: "+err.Error(), env.Tr("The command could not start: %v", err)), nil
	}
	if !denial.Empty() && (denial.Write || denial.Network) && env.Approver != nil && ctx.Err() == nil {
		// Ask the person whether to grant what was denied; never retry by
		// ourselves (a retry outside the sandbox for every failure is the
		// trap). Headless approvers refuse, and the model reads why.
		d := denial
		dec, aerr := env.Approver.ConfirmShell(ctx, ShellProposal{Command: command, Cwd: cwd, ToolCallID: CallID(ctx), Denial: &d, Granted: grant})
		// A yes to domains refused under a network grant adds them to the
		// session's allowlist: that widens too.
		if aerr == nil && dec.Allowed && (widens(dec.Grant, grant) || grant.Network && len(denial.Domains) > 0) {
			first := denial
			grant = dec.Grant
			if res, denial, err = run.do(ctx, grant); err != nil {
				return FailShown("run_shell_command: "+err.Error(), env.Tr("The command could not start: %v", err)), nil
			}
			how := res.Sandbox
			if grant.Outside {
				how = "outside the sandbox, at the user's request"
			}
			note = strings.TrimSpace(note + "\n" + first.explain(sb.Display) + " The user then allowed it, and it ran again (" + how + ").")
			auto = nil
		}
	}
	res.Cwd = sb.Display(cwd)
	var out strings.Builder
	fmt.Fprintf(&out, "$ %s\n(cwd %s, exit code %d, %d ms, sandbox: %s)\n", command, res.Cwd, res.ExitCode, res.DurationMs, res.Sandbox)
	if note != "" {
		out.WriteString(note + "\n")
	}
	switch {
	case res.TimedOut:
		fmt.Fprintf(&out, "Timed out after %s; the command and everything it started were killed.", timeout)
		if capped {
			out.WriteString(" (The timeout was capped by the user's maximum.)")
		}
		out.WriteString("\n")
	case res.Canceled:
		out.WriteString("Canceled; the command and everything it started were killed.\n")
	}
	if res.Stdout != "" {
		out.WriteString("stdout:\n" + strings.TrimRight(res.Stdout, "\n") + "\n")
	}
	if res.Stderr != "" {
		out.WriteString("stderr:\n" + strings.TrimRight(res.Stderr, "\n") + "\n")
	}
	if res.Stdout == "" && res.Stderr == "" {
		out.WriteString("(no output)\n")
	}
	if res.Truncated {
		out.WriteString("[Output was truncated to its beginning and end.]\n")
	}
	if len(res.KeyErrors) > 0 {
		out.WriteString("Key errors:\n  " + strings.Join(res.KeyErrors, "\n  ") + "\n")
	}
	if !denial.Empty() {
		out.WriteString(denial.explain(sb.Display) + "\n")
	}
	meta := ShellMeta{Result: res, AutoApproved: auto}
	if !denial.Empty() {
		meta.Denial = &denial
	}
	if res.Canceled && ctx.Err() != nil {
		// The person sees the command's output under a translated lead.
		shown := env.Tr("Stopped while %s was running.", "run_shell_command") + "\n" + strings.TrimRight(out.String(), "\n")
		return Result{OK: false, Output: strings.TrimRight(out.String(), "\n"), Display: shown, Meta: meta}, nil
	}
	return Result{OK: res.ExitCode == 0 && !res.TimedOut, Output: strings.TrimRight(out.String(), "\n"), Meta: meta}, nil
}

// ShellMeta is Result.Meta of a command that ran: the run itself, and why
// no one was asked when no one was.
type ShellMeta struct {
	shell.Result
	AutoApproved *AutoApproval `json:"autoApproved,omitempty"`
	// Denial is what the sandbox refused the command, when it failed so.
	Denial *Denial `json:"sandboxDenial,omitempty"`
}
