package shell

import (
	"strings"
	"testing"
)

// TestVariablesNamingProgramsNeverReachACommand: the shell analysis no
// longer treats pagers, man, journalctl or git's pager as running code
// (shellcheck's interactive.go), because what they would run from the
// environment never reaches a command: every variable that names a
// program, a preprocessor or code to load is outside the allowlist.
func TestVariablesNamingProgramsNeverReachACommand(t *testing.T) {
	names := []string{"PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "LESSOPEN", "LESSCLOSE", "LESS", "LESSKEYIN",
		"MANOPT", "BROWSER", "EDITOR", "VISUAL", "GIT_EXTERNAL_DIFF", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS",
		"GIT_EXEC_PATH", "GIT_DIR", "LD_PRELOAD", "BASH_ENV", "NODE_OPTIONS", "PYTHONSTARTUP", "PERL5OPT"}
	var environ []string
	for _, n := range names {
		environ = append(environ, n+"=/tmp/x.sh")
	}
	kept := ScrubEnv(append(environ, "LANG=C.UTF-8"))
	if len(kept) != 1 || kept[0] != "LANG=C.UTF-8" {
		t.Fatalf("kept %v; only LANG may pass", strings.Join(kept, " "))
	}
}
