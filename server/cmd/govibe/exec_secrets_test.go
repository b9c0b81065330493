//go:build linux

package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// chainProbe prints the environment of every process from the command up
// to pid 1: the shell, govibe, whatever started govibe.
const chainProbe = `p=$$
while [ "$p" -gt 1 ]; do
  echo "== pid $p"
  tr '\0' '\n' < /proc/$p/environ
  echo
  p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2)
done
`

// ppidProbe is issue 13's reproduction: the parent of the shell that runs
// a command is the sidecar; print its name and its environment.
const ppidProbe = `echo "comm=$(cat /proc/$PPID/comm)"
cat /proc/$PPID/environ | tr '\0' '\n'
`

func randomSecret(t *testing.T, prefix string) string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return prefix + hex.EncodeToString(b)
}

// TestExecCommandsCannotReadTheKey runs headless with every command
// approved: the agent reads its parent's and grandparent's environment
// and walks the whole process chain, and neither the API key nor another
// planted credential shows up anywhere, while the model was still called
// with the key.
func TestExecCommandsCannotReadTheKey(t *testing.T) {
	key := randomSecret(t, "sk-probe-")
	aws := randomSecret(t, "aws-")
	dbPass := randomSecret(t, "pw")
	// ppid.sh is the read, run for real: the classifier refuses
	// it typed directly (c1), so a script it cannot see into does it.
	ws := gitRepo(t, map[string]string{"probe.sh": chainProbe, "ppid.sh": ppidProbe})
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c5", "run_shell_command", `{"command":"sh ppid.sh"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c1", "run_shell_command", `{"command":"cat /proc/$PPID/environ | tr '\\0' '\\n'"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c2", "run_shell_command", `{"command":"cat /proc/$(sed 's/.*) //' /proc/$PPID/stat | cut -d' ' -f2)/environ | tr '\\0' '\\n'"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c3", "run_shell_command", `{"command":"sh probe.sh"}`)}},
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c4", "run_shell_command", `{"command":"env"}`)}},
		scripted.Reply{Text: "done"},
	)
	state := t.TempDir()
	out, errOut, code := runExec(t, []string{
		"GOVIBE_API_KEY=" + key, "AWS_SECRET_ACCESS_KEY=" + aws, "DATABASE_URL=postgres://app:" + dbPass + "@db/app",
		"HOME=" + t.TempDir(), "PLAIN_MARKER=hidden", "TZ=GoVibeMarker0",
	}, "--workspace", ws, "--state-dir", state, "--base-url", model.URL(), "--model", "scripted",
		// Unsandboxed, so the commands can walk up to govibe's own
		// block: this tests the hand-over, the layer that also covers hooks
		// and MCP servers (a sandboxed command cannot see govibe at all).
		"--set", "sandbox.enabled=false",
		"--approve", "all", "--set", "logLevel=debug", "--set", `permissions.allow=["Bash(sh probe.sh)","Bash(sh ppid.sh)"]`, "--output", "stream-json", "show me the environment")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	results := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var obj map[string]any
		if json.Unmarshal([]byte(line), &obj) == nil && obj["type"] == "tool_result" {
			s, _ := obj["output"].(string)
			results[obj["id"].(string)] = s
		}
	}
	// The chain walk and env must run: the scrub is tested, not a refusal.
	// The chain walk reads govibe's own /proc/<pid>/environ from a script
	// the classifier cannot see into. The direct /proc reads are refused
	// by the shell classifier today (a first, separate defence); should
	// they run, they must show a clean parent and grandparent.
	for _, id := range []string{"c1", "c2", "c3", "c4"} {
		ran := strings.Contains(results[id], "PATH=")
		if !ran && (id == "c3" || id == "c4") {
			t.Fatalf("%s did not show an environment:\n%s\nstderr:\n%s", id, results[id], errOut)
		}
		if !ran {
			t.Logf("%s was not run (refused before running): %.600s", id, results[id])
		}
	}
	if strings.Contains(out, "PLAIN_MARKER") {
		t.Fatal("a variable outside the allowlist reached a command or govibe's own block")
	}
	if strings.Contains(results["c1"], "PATH=") && !strings.Contains(results["c1"], "TZ=GoVibeMarker0") {
		t.Fatalf("the parent's environment must be readable:\n%s", results["c1"])
	}
	// The command's parent is govibe itself, and its block is readable and
	// clean (the planted secrets are checked in all output below).
	if !strings.Contains(results["c5"], "comm=govibe") || !strings.Contains(results["c5"], "TZ=GoVibeMarker0") {
		t.Fatalf("cat /proc/$PPID/environ did not read govibe's environment:\n%s", results["c5"])
	}
	if strings.Count(results["c3"], "== pid") < 3 || !strings.Contains(results["c3"], "TZ=GoVibeMarker0") {
		t.Fatalf("the chain walk must cover the shell, govibe and its parent:\n%s", results["c3"])
	}
	for _, secret := range []string{key, aws, dbPass} {
		if strings.Contains(out, secret) || strings.Contains(errOut, secret) {
			t.Errorf("a planted credential (%s…) reached the output", secret[:6])
		}
	}
	// govibe's own block names the (closed) hand-over descriptor; the
	// commands' environment does not.
	if strings.Contains(results["c4"], "GOVIBE_HELD_ENV_FD") {
		t.Error("the hand-over descriptor must not reach commands")
	}
	// The debug log names what was scrubbed, never the values.
	logText, err := os.ReadFile(filepath.Join(state, "logs", "govibe.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logText), "shell environment scrubbed") || !strings.Contains(string(logText), "AWS_SECRET_ACCESS_KEY") {
		t.Errorf("the debug log lacks the scrubbed names:\n%s", logText)
	}
	for _, secret := range []string{key, aws, dbPass} {
		if strings.Contains(string(logText), secret) {
			t.Errorf("a planted credential reached the log")
		}
	}
	// The model still got the key: the engine holds it in memory only.
	reqs := model.Requests()
	if len(reqs) == 0 || !reqs[0].HasAuth {
		t.Fatalf("the model was not called with the API key")
	}
	for _, r := range reqs {
		for _, secret := range []string{key, aws, dbPass} {
			if strings.Contains(string(r.Body), secret) {
				t.Fatalf("a planted credential reached the model")
			}
		}
	}
}

// TestExecHoldsAKeyVariableOfAnyName: --api-key-env may name a variable
// that does not look like a credential; it is held all the same.
func TestExecHoldsAKeyVariableOfAnyName(t *testing.T) {
	key := randomSecret(t, "plain-")
	ws := gitRepo(t, map[string]string{"probe.sh": chainProbe})
	model := scripted.Start(t,
		scripted.Reply{ToolCalls: []scripted.ToolCall{tc("c1", "run_shell_command", `{"command":"sh probe.sh"}`)}},
		scripted.Reply{Text: "done"},
	)
	out, errOut, code := runExec(t, []string{"LLM_CRED_VALUE=" + key, "HOME=" + t.TempDir()},
		"--workspace", ws, "--state-dir", t.TempDir(), "--base-url", model.URL(), "--model", "scripted",
		"--set", "sandbox.enabled=false", // walks up to govibe's block (see above)
		"--api-key-env=LLM_CRED_VALUE", "--approve", "all", "--set", `permissions.allow=["Bash(sh probe.sh)"]`,
		"--output", "stream-json", "look")
	if code != 0 || strings.Count(out, "== pid") < 3 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, key) {
		t.Fatal("the key named by --api-key-env reached a command")
	}
	if reqs := model.Requests(); len(reqs) == 0 || !reqs[0].HasAuth {
		t.Fatal("the model was not called with the key")
	}
}
