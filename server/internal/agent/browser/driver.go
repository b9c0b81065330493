package browser

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// PlaywrightVersion is the playwright-core version playwright-go v0.5200.1
// (go.mod) speaks to; a driver of another version is refused.
const PlaywrightVersion = "1.52.0"

// Environment variables the extension (or a user) sets.
const (
	// EnvDriverDir names a driver directory (<dir>/package/cli.js).
	EnvDriverDir = "GOVIBE_PLAYWRIGHT_DRIVER"
	// EnvNode names the node binary that runs the driver. The extension
	// passes VS Code's own Electron here rather than in playwright-go's
	// PLAYWRIGHT_NODEJS_PATH, which every command the agent runs would
	// inherit; the sidecar sets PLAYWRIGHT_NODEJS_PATH (and
	// ELECTRON_RUN_AS_NODE=1) only around the driver's start.
	EnvNode = "GOVIBE_PLAYWRIGHT_NODE"
	// EnvNodeIsElectron says EnvNode is an Electron binary that must run
	// with ELECTRON_RUN_AS_NODE=1.
	EnvNodeIsElectron = "GOVIBE_PLAYWRIGHT_NODE_ELECTRON"
)

// ErrUnavailable is wrapped by every "cannot start a browser here" error.
var ErrUnavailable = errors.New("the browser sub-agent is not available")

// Driver is where the playwright driver lives and what runs it.
type Driver struct {
	Dir      string // holds package/cli.js
	Node     string // node (or Electron) binary
	Electron bool
}

// driverCandidates lists, in order, the directories searched for a driver:
// the explicit setting, $GOVIBE_PLAYWRIGHT_DRIVER, playwright-go's own
// $PLAYWRIGHT_DRIVER_PATH, next to the sidecar binary (the .vsix layout:
// bin/govibe and playwright-driver/ side by side, or one level up), and the
// e2e cache a development checkout builds with e2e/setup.sh.
func driverCandidates(explicit string) []string {
	var out []string
	add := func(d string) {
		if d != "" {
			out = append(out, d)
		}
	}
	add(explicit)
	add(os.Getenv(EnvDriverDir))
	add(os.Getenv("PLAYWRIGHT_DRIVER_PATH"))
	if exe, err := os.Executable(); err == nil {
		dir := filepath.Dir(exe)
		add(filepath.Join(dir, "playwright-driver"))
		add(filepath.Join(dir, "..", "playwright-driver"))
	}
	if c := os.Getenv("GOVIBE_E2E_CACHE"); c != "" {
		add(filepath.Join(c, "playwright-driver"))
	}
	return out
}

// FindDriver locates the driver directory and the node that runs it. The
// error says exactly what was searched and what to install.
func FindDriver(explicit string) (Driver, error) {
	var tried []string
	for _, dir := range driverCandidates(explicit) {
		cli := filepath.Join(dir, "package", "cli.js")
		if _, err := os.Stat(cli); err != nil {
			tried = append(tried, dir)
			continue
		}
		if v := packageVersion(filepath.Join(dir, "package", "package.json")); v != PlaywrightVersion {
			return Driver{}, fmt.Errorf("%w: the playwright driver in %s is version %q, GoVibe needs playwright-core %s (npm pack playwright-core@%s and unpack it as %s/package)",
				ErrUnavailable, dir, v, PlaywrightVersion, PlaywrightVersion, dir)
		}
		node, electron, err := findNode(dir)
		if err != nil {
			return Driver{}, err
		}
		return Driver{Dir: dir, Node: node, Electron: electron}, nil
	}
	return Driver{}, fmt.Errorf("%w: no playwright driver found (looked in: %s). Install one: `npm pack playwright-core@%s`, unpack it into <dir>/package, and set %s=<dir> (the VS Code extension bundles it; in a checkout, run e2e/setup.sh)",
		ErrUnavailable, strings.Join(tried, ", "), PlaywrightVersion, EnvDriverDir)
}

func packageVersion(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var p struct {
		Version string `json:"version"`
	}
	_ = json.Unmarshal(b, &p)
	return p.Version
}

// findNode prefers a node shipped inside the driver directory, then the
// one the extension passes (VS Code's Electron), then node on PATH.
func findNode(dir string) (string, bool, error) {
	name := "node"
	if runtime.GOOS == "windows" {
		name = "node.exe"
	}
	if p := filepath.Join(dir, name); isFile(p) {
		return p, false, nil
	}
	for _, env := range []string{EnvNode, "PLAYWRIGHT_NODEJS_PATH"} {
		if p := os.Getenv(env); p != "" {
			if !isFile(p) {
				return "", false, fmt.Errorf("%w: %s=%s does not exist", ErrUnavailable, env, p)
			}
			return p, env == EnvNode && os.Getenv(EnvNodeIsElectron) == "1", nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, false, nil
	}
	return "", false, fmt.Errorf("%w: the playwright driver needs Node.js 18 or later and none was found: install Node.js (https://nodejs.org) so that `node` is on PATH, or set %s to a node binary",
		ErrUnavailable, EnvNode)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// chromiumCandidates are the standard install locations per OS.
func chromiumCandidates() []string {
	switch runtime.GOOS {
	case "windows":
		var out []string
		for _, env := range []string{"PROGRAMFILES", "PROGRAMFILES(X86)", "LOCALAPPDATA"} {
			if b := os.Getenv(env); b != "" {
				out = append(out, filepath.Join(b, `Google\Chrome\Application\chrome.exe`),
					filepath.Join(b, `Chromium\Application\chrome.exe`), filepath.Join(b, `Microsoft\Edge\Application\msedge.exe`))
			}
		}
		return out
	case "darwin":
		return []string{"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"}
	}
	return []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable",
		"/snap/bin/chromium", "/usr/bin/microsoft-edge"}
}

// FindChromium returns the browser to launch: the setting when given (it
// must exist), otherwise the first standard location that does.
func FindChromium(setting string) (string, error) {
	if setting != "" {
		if !isFile(setting) {
			return "", fmt.Errorf("%w: govibe.browser.executablePath is %s, which does not exist", ErrUnavailable, setting)
		}
		return setting, nil
	}
	for _, p := range chromiumCandidates() {
		if isFile(p) {
			return p, nil
		}
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: no Chromium or Chrome found (looked in %s): install Chromium or Google Chrome, or set govibe.browser.executablePath",
		ErrUnavailable, strings.Join(chromiumCandidates(), ", "))
}
