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

// reconcilePhase is each reconcile agent's phase (its tools are
// toolpolicy's: the specifier and the coder read, write and run the
// tests; the auditor calls no model, so it offers nothing).
func reconcilePhase(s Step) Phase {
	switch s {
	case Specifier, Coder:
		return Phase{Name: string(s), MaxNudges: 2}
	case Auditor:
		return Phase{Name: string(Auditor)}
	}
	// Before the loop: drafting the manifest: reads, and write_file
	// limited by ManifestWrite to the manifest itself.
	return Phase{Name: "manifest"}
}

// testDirs are folders whose files are tests or their inputs: Go's
// testdata (golden files decide what passes), snapshots, mocks and
// fixtures included.
var testDirs = []string{"__tests__", "tests", "test", "e2e", "testdata", "__snapshots__", "__mocks__", "__fixtures__", "fixtures"}

// IsTestPath says whether a workspace-relative path is a test file (or a
// test's input, or a file configuring the test run: IsTestConfigPath) by
// the usual conventions of Go, JS/TS and Python projects. The path is cleaned first, so "tests/../src/app.go" is the
// source file it names.
func IsTestPath(p string) bool {
	p = path.Clean(strings.ReplaceAll(p, "\\", "/"))
	base := path.Base(p)
	for _, seg := range strings.Split(path.Dir(p), "/") {
		for _, dir := range testDirs {
			if seg == dir {
				return true
			}
		}
	}
	switch {
	case strings.HasSuffix(base, "_test.go"), strings.HasSuffix(base, ".snap"), IsTestConfigPath(base):
		return true
	case strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py"):
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
// Shared config files (package.json…) pass here: CheckSharedEdit judges
// the edit itself. Other steps and modes have no path rule.
func CheckWrite(s Step, p string) error {
	if IsSharedConfigPath(p) && !IsTestPath(p) && (s == Coder || s == Specifier) {
		return nil
	}
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

// ManifestWrite is the drafting phase's path rule: before the loop, the
// only file the model may write is a manifest.
func ManifestWrite(p string) error {
	p = strings.ReplaceAll(p, "\\", "/")
	if i := strings.Index(p, ".govibe/manifests/"); i >= 0 && !strings.Contains(p[i:], "..") && strings.HasSuffix(p, ".json") {
		return nil
	}
	return fmt.Errorf("while drafting the manifest, only .govibe/manifests/<name>.json may be written; %s is not one", p)
}

// WriteRule is the path rule of a reconcile step ("" is drafting).
func WriteRule(s Step) func(string) error {
	if s == "" {
		return ManifestWrite
	}
	return func(p string) error { return CheckWrite(s, p) }
}

// DraftPrompt asks the model for a Vibe Manifest from an intent.
func DraftPrompt(intent string) string {
	return "Reconcile mode. Turn this intent into a Vibe Manifest and save it with write_file to .govibe/manifests/<name>.json " +
		"(name: lower-case letters, digits and dashes). Fields: metadata {name, version, approved: false}, " +
		"spec {intent, constraints {framework, language, testing: [test frameworks]}, visualSpec {style, elements: [required UI elements]}, " +
		"functionalSpec {inputs, states, behaviors}, testCommand, e2eCommand (optional)}, status {phase: \"Pending\", currentLoop: 0}. " +
		"testCommand must print a report the auditor can read: go test -json, jest --json, vitest run --reporter=json, or a final \"N passed, N failed\" line. Read the workspace first if it has code. Do not write anything else.\n\nIntent: " + intent
}
