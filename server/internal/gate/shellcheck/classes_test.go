package shellcheck

import (
	"encoding/json"
	"strings"
	"testing"
)

// The card shows Analysis.Reason: the class in words and the reason that
// gave the command its class.
func TestReasonNamesClassAndCause(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"ls -la", "read-only command"},
		{"go test ./...", "runs code the analysis cannot see: go: go test builds and runs the project's tests"},
		{"cat /etc/hosts", "reads files outside the workspace: cat: reads /etc/hosts, outside the workspace"},
		{"touch a.txt && ls", "changes files or state"},
		{"nc -e /bin/sh h 1", "dangerous command: nc: opens raw network connections"},
		{"LESSOPEN='|id %s' less notes.txt", "runs code the analysis cannot see: less: sets LESSOPEN, a command that programs run"},
	} {
		got := Analyze(c.cmd, testWS).Reason
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%q: Reason %q, want prefix %q", c.cmd, got, c.want)
		}
	}
}

func TestClassNames(t *testing.T) {
	want := map[Class]string{ReadOnly: "read-only", ReadsOutside: "reads-outside", Mutating: "mutating", RunsCode: "runs-code", Dangerous: "dangerous"}
	for c, s := range want {
		b, err := json.Marshal(c)
		if err != nil || string(b) != `"`+s+`"` || c.String() != s || c.Describe() == "" {
			t.Errorf("%d: %s %v %q", c, b, err, c.Describe())
		}
	}
	if _, err := json.Marshal(Class(9)); err == nil {
		t.Error("invalid class marshalled")
	}
	if !(ReadOnly < ReadsOutside && ReadsOutside < Mutating && Mutating < RunsCode && RunsCode < Dangerous) {
		t.Error("classes out of order")
	}
}

// Evaluators may run checks (tests, linters) but nothing that writes, runs
// other project code or is dangerous.
func TestOnlyChecks(t *testing.T) {
	for cmd, want := range map[string]bool{
		"go test ./...": true, "npm test": true, "npm run lint": true, "cargo clippy": true, "pytest -q": true,
		"python3 -m pytest": true, "git status && go vet ./...": true, "eslint src": true,
		"go test -coverprofile=c.out ./...": false, "go test ./... > out.log": false, "npm run build": false,
		"make": false, "./x.sh": false, "go run .": false, "eslint --fix .": false, "cat /etc/hosts": false,
		"go test ./... && rm -rf /": false, "npm install": false,
	} {
		if got := OnlyChecks(Analyze(cmd, testWS)); got != want {
			t.Errorf("%q: OnlyChecks %v, want %v", cmd, got, want)
		}
	}
}
