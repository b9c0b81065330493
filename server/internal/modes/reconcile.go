package modes

import (
	"fmt"
	"path"
	"strings"
)

// Step is the scoped agent a reconcile loop is running.
type Step string

const (
	Specifier Step = "specifier" // writes failing tests for the manifest
	Coder     Step = "coder"     // changes code until the tests pass
	Auditor   Step = "auditor"   // runs the test command; no model call
)

// reconcilePhase is each reconcile agent's whitelist. The auditor calls
// no model, so it offers nothing.
func reconcilePhase(s Step) Phase {
	switch s {
	case Specifier:
		return Phase{Name: string(Specifier), Allow: or(in(reads), in(writes), only(ToolShell)), MaxNudges: 2}
	case Coder:
		return Phase{Name: string(Coder), Allow: or(in(reads), in(writes), only(ToolShell)), MaxNudges: 2}
	case Auditor:
		return Phase{Name: string(Auditor), Allow: func(ToolInfo) bool { return false }}
	}
	// Before the loop: drafting the manifest, read-only.
	return Phase{Name: "manifest", Allow: func(t ToolInfo) bool { return t.ReadOnly }}
}

// IsTestPath says whether a workspace path is a test file by the usual
// conventions of Go, JS/TS and Python projects.
func IsTestPath(p string) bool {
	p = strings.ReplaceAll(p, "\\", "/")
	base := path.Base(p)
	for _, dir := range []string{"/__tests__/", "/tests/", "/test/", "/e2e/"} {
		if strings.Contains("/"+p, dir) {
			return true
		}
	}
	switch {
	case strings.HasSuffix(base, "_test.go"):
		return true
	case strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"):
		return true
	}
	for _, mid := range []string{".test.", ".spec."} {
		if strings.Contains(base, mid) {
			return true
		}
	}
	return false
}

// CheckWrite enforces a reconcile agent's path rule on a write tool's
// target: the specifier touches test files only, the coder never does.
// Other steps and modes have no path rule.
func CheckWrite(s Step, p string) error {
	switch s {
	case Specifier:
		if !IsTestPath(p) {
			return fmt.Errorf("the specifier may only write test files; %s is not one", p)
		}
	case Coder:
		if IsTestPath(p) {
			return fmt.Errorf("the coder may not change tests; %s is a test file", p)
		}
	case Auditor:
		return fmt.Errorf("the auditor does not write")
	}
	return nil
}
