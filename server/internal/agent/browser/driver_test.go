package browser

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// isolate hides every driver the environment would offer.
func isolate(t *testing.T) {
	for _, k := range []string{EnvDriverDir, "PLAYWRIGHT_DRIVER_PATH", "PLAYWRIGHT_NODEJS_PATH", "GOVIBE_E2E_CACHE", EnvNode, EnvNodeIsElectron} {
		t.Setenv(k, "")
	}
}

func fakeDriver(t *testing.T, version string, withNode bool) string {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "package")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(pkg, "cli.js"), []byte("//"), 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"playwright-core","version":"`+version+`"}`), 0o644))
	if withNode {
		must(t, os.WriteFile(filepath.Join(dir, "node"), []byte("#!/bin/sh\n"), 0o755))
	}
	return dir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestFindDriverErrors(t *testing.T) {
	isolate(t)
	t.Setenv("PATH", t.TempDir()) // no node on PATH

	_, err := FindDriver(t.TempDir())
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no playwright driver found") ||
		!strings.Contains(err.Error(), "npm pack playwright-core@"+PlaywrightVersion) || !strings.Contains(err.Error(), EnvDriverDir) {
		t.Fatalf("missing driver: %v", err)
	}
	_, err = FindDriver(fakeDriver(t, "1.40.0", true))
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), `version "1.40.0"`) {
		t.Fatalf("wrong version: %v", err)
	}
	noNode := fakeDriver(t, PlaywrightVersion, false)
	_, err = FindDriver(noNode)
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "install Node.js") || !strings.Contains(err.Error(), EnvNode) {
		t.Fatalf("missing node: %v", err)
	}
	t.Setenv(EnvNode, "/nonexistent/electron")
	if _, err = FindDriver(noNode); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "/nonexistent/electron does not exist") {
		t.Fatalf("bad node path: %v", err)
	}
}

func TestFindDriverOrder(t *testing.T) {
	isolate(t)
	// The driver's own node first; then the extension's Electron, flagged.
	withNode := fakeDriver(t, PlaywrightVersion, true)
	d, err := FindDriver(withNode)
	if err != nil || d.Node != filepath.Join(withNode, "node") || d.Electron {
		t.Fatalf("%+v %v", d, err)
	}
	bare := fakeDriver(t, PlaywrightVersion, false)
	electron := filepath.Join(withNode, "node")
	t.Setenv(EnvDriverDir, bare)
	t.Setenv(EnvNode, electron)
	t.Setenv(EnvNodeIsElectron, "1")
	d, err = FindDriver("")
	if err != nil || d.Dir != bare || d.Node != electron || !d.Electron {
		t.Fatalf("%+v %v", d, err)
	}
	// Headless: node on PATH.
	t.Setenv(EnvNode, "")
	bin := t.TempDir()
	must(t, os.WriteFile(filepath.Join(bin, "node"), []byte("#!/bin/sh\n"), 0o755))
	t.Setenv("PATH", bin)
	if d, err = FindDriver(""); err != nil || d.Node != filepath.Join(bin, "node") || d.Electron {
		t.Fatalf("%+v %v", d, err)
	}
}

func TestMissingBrowserAndDriverGiveClearErrors(t *testing.T) {
	isolate(t)
	_, err := FindChromium("/nonexistent/chrome")
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "govibe.browser.executablePath is /nonexistent/chrome") {
		t.Fatalf("%v", err)
	}
	// Run reports the missing driver before starting anything.
	_, err = Run(context.Background(), Config{DriverDir: t.TempDir()}, Task{Task: "x"}, Model{})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no playwright driver found") {
		t.Fatalf("%v", err)
	}
	if _, err = Run(context.Background(), Config{}, Task{Task: " "}, Model{}); err == nil || err.Error() != "task is required" {
		t.Fatalf("%v", err)
	}
}

// The versions that must agree: playwright-go in go.mod, the driver
// version this package requires, and the playwright-core the extension
// bundles and e2e/setup.sh installs.
func TestPinnedVersionsAgree(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..")
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(root, p))
		must(t, err)
		return string(b)
	}
	if !strings.Contains(read("go.mod"), "github.com/playwright-community/playwright-go v0.5200.1") {
		t.Error("go.mod no longer pins playwright-go v0.5200.1: update PlaywrightVersion, package.json and e2e/setup.sh with it")
	}
	if !strings.Contains(read("package.json"), `"playwright-core": "`+PlaywrightVersion+`"`) {
		t.Errorf("package.json must pin playwright-core %s exactly", PlaywrightVersion)
	}
	if !strings.Contains(read("e2e/setup.sh"), `PLAYWRIGHT_CORE_VERSION="`+PlaywrightVersion+`"`) {
		t.Errorf("e2e/setup.sh must install playwright-core %s", PlaywrightVersion)
	}
}

// TestBrowserAgentWithoutAskHuman: the browser agent runs with its own
// actions only, so no question dialog (nor its Close note) concerns it.
func TestBrowserAgentWithoutAskHuman(t *testing.T) {
	for _, a := range newActions(nil, &recorder{}) {
		if a.Name() == "ask_human" {
			t.Fatal("the browser agent is offered ask_human")
		}
	}
}
