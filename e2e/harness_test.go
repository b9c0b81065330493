package e2e

import (
	"encoding/json"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// harnessOptions choose what a test's product instance has.
type harnessOptions struct {
	// Extension installs the GoVibe .vsix before code-server starts.
	Extension bool
	// ModelRules, when non-nil, starts the scripted model with these rules and
	// points GoVibe's settings at it.
	ModelRules any
	// Settings are merged over the defaults written to the user settings.json.
	Settings map[string]any
	// WorkspaceSettings are written to the workspace's .vscode/settings.json.
	WorkspaceSettings map[string]any
	// Clipboard lets the page read and write the clipboard (code-server's
	// clipboard goes through the browser's, which asks for permission).
	Clipboard bool
	// WorkspaceFiles are written into the workspace (relative path →
	// content) before the folder is opened.
	WorkspaceFiles map[string]string
	// WorkspaceTrust turns VS Code's workspace trust on (code-server runs
	// without it otherwise): the folder opens untrusted, in Restricted Mode.
	WorkspaceTrust bool
	// SecondFolder opens a multi-root workspace (a .code-workspace file):
	// the usual git workspace plus a second folder, not a git repository,
	// holding secondFolderFiles.
	SecondFolder bool
	// BeforeOpen runs after code-server is up and before the page opens
	// the workspace (the start-up bench seeds the session store there).
	// A test with one gets a code-server of its own.
	BeforeOpen func(h *harness)
	// PrivateCodeServer gives the test a code-server of its own instead of
	// the shared one (sharedcs_test.go): for a test that stops it, counts
	// its windows' processes across windows, or asserts on its whole
	// user-data dir, which holds other tests' files when shared.
	PrivateCodeServer bool
}

// harness is one test's running product: a git workspace, code-server (the
// shared one, or one with its own user-data dir: see canShare), optionally
// GoVibe and the scripted model, and a page in a fresh browser context on
// the test's own Chromium showing the workbench.
type harness struct {
	t         *testing.T
	root      string
	env       toolEnv
	Workspace string
	// Workspace2 is the second folder of a multi-root workspace, if any.
	Workspace2 string
	Dirs       codeServerDirs
	CS         *codeServer
	Model      *scriptedModel
	Browser    playwright.Browser // this test's own Chromium
	Page       playwright.Page
	Expect     playwright.PlaywrightAssertions
	Console    *consoleLog
	Artifacts  string
	// keepShots keeps the named screenshots of a passing test (see shot).
	keepShots bool
	// shared is the test's use of the shared code-server, nil with its own.
	shared *sharedLease
}

const (
	actionTimeoutMS = 30_000
	startupTimeout  = 90_000 // first workbench load compiles and caches a lot on two cores
)

func newHarness(t *testing.T, opts harnessOptions) *harness {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	env, err := loadToolEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, root: root, env: env, Console: &consoleLog{},
		Expect: playwright.NewPlaywrightAssertions(actionTimeoutMS)}
	start := time.Now()
	phase := func(name string) { t.Logf("harness: %s after %v", name, time.Since(start).Round(time.Millisecond)) }

	if h.Artifacts, err = newArtifactsDir(root, t.Name()); err != nil {
		t.Fatal(err)
	}
	h.Workspace = newWorkspace(t)
	if opts.WorkspaceSettings != nil {
		writeJSON(t, filepath.Join(h.Workspace, ".vscode", "settings.json"), opts.WorkspaceSettings)
	}
	for rel, content := range opts.WorkspaceFiles {
		p := filepath.Join(h.Workspace, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// finish is registered after the temp dirs so it runs before they are
	// removed, and before everything else so it runs after all of it has
	// stopped: with the shared code-server, after the lease's release (which
	// may fail the test when a process outlives the window, and whose
	// failure has to keep the artifacts); the release, registered next,
	// runs after the browser, and with it the test's window, has closed.
	if canShare(opts) {
		t.Cleanup(h.finish)
		h.shared = leaseSharedCodeServer(t, env, root)
		h.Dirs, h.CS = h.shared.dirs, h.shared.cs
		phase("shared code-server leased")
	} else {
		h.Dirs = newCodeServerDirs(t)
		t.Cleanup(h.finish)
	}

	settings := map[string]any{
		"workbench.startupEditor":                          "none",
		"workbench.tips.enabled":                           false,
		"workbench.enableExperiments":                      false,
		"telemetry.telemetryLevel":                         "off",
		"update.mode":                                      "none",
		"extensions.autoUpdate":                            "off",
		"extensions.autoCheckUpdates":                      false,
		"extensions.ignoreRecommendations":                 true,
		"security.workspace.trust.enabled":                 false,
		"chat.disableAIFeatures":                           true,
		"workbench.secondarySideBar.defaultVisibility":     "hidden",
		"workbench.welcomePage.walkthroughs.openOnInstall": false,
		"git.openRepositoryInParentFolders":                "never",
	}
	if opts.ModelRules != nil {
		h.Model = startScriptedModel(t, root, opts.ModelRules, h.Artifacts)
		phase("scripted model up")
		settings["govibe.apiBaseUrl"] = h.Model.URL
		settings["govibe.model"] = "scripted"
	}
	for k, v := range opts.Settings {
		settings[k] = v
	}
	h.writeSettings(settings)

	if h.shared == nil {
		if opts.Extension {
			installExtension(t, env, h.Dirs, vsixPath(root), filepath.Join(h.Artifacts, "install-extension.log"))
			phase("extension installed")
		}
		h.CS = startCodeServer(t, env, h.Dirs, filepath.Join(h.Artifacts, "code-server.log"), opts.WorkspaceTrust)
		phase("code-server healthy")
	}

	h.Browser = launchBrowser(t, env, h.Artifacts)
	ctxOpts := playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1400, Height: 900}}
	if opts.Clipboard {
		ctxOpts.Permissions = []string{"clipboard-read", "clipboard-write"}
	}
	bctx, err := h.Browser.NewContext(ctxOpts)
	if err != nil {
		t.Fatalf("new browser context: %v", err)
	}
	bctx.SetDefaultTimeout(actionTimeoutMS)
	// The context ends with the test's browser (launchBrowser's cleanup).
	h.Page, err = bctx.NewPage()
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	attachConsole(h.Page, h.Console)
	if h.shared != nil {
		// Runs after captureOnFailure: closing the context ends the window
		// as closing a tab does, the workbench disconnects gracefully
		// (code-server.log: "disconnected gracefully") and code-server ends
		// the window's extension host at once, where it keeps one whose
		// client just vanished for a reconnection (VSCODE_RECONNECTION_GRACE_TIME,
		// 3 h); the lease's release waits for that end.
		t.Cleanup(func() { _ = bctx.Close() })
	}
	t.Cleanup(h.captureOnFailure) // runs first: the page is still open

	target := h.CS.URL + "?folder=" + url.QueryEscape(h.Workspace)
	if opts.SecondFolder {
		h.Workspace2 = newSecondFolder(t)
		target = h.CS.URL + "?workspace=" + url.QueryEscape(writeCodeWorkspace(t, h.Workspace, h.Workspace2))
	}
	if opts.BeforeOpen != nil {
		opts.BeforeOpen(h)
	}
	if _, err := h.Page.Goto(target, playwright.PageGotoOptions{
		WaitUntil: playwright.WaitUntilStateDomcontentloaded, Timeout: playwright.Float(startupTimeout)}); err != nil {
		t.Fatalf("open %s: %v", target, err)
	}
	if err := h.Expect.Locator(h.Page.Locator(selWorkbench)).ToBeVisible(
		playwright.LocatorAssertionsToBeVisibleOptions{Timeout: playwright.Float(startupTimeout)}); err != nil {
		t.Fatalf("workbench did not render: %v", err)
	}
	phase("workbench rendered")
	return h
}

func (h *harness) writeSettings(settings map[string]any) {
	h.t.Helper()
	data, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(h.settingsPath(), data, 0o644); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) settingsPath() string {
	return filepath.Join(h.Dirs.userData, "User", "settings.json")
}

// keepArtifacts is true when artifacts should be saved: on failure, or for
// every test when GOVIBE_E2E_ARTIFACTS=always (to look at a passing run).
func (h *harness) keepArtifacts() bool {
	return h.t.Failed() || os.Getenv("GOVIBE_E2E_ARTIFACTS") == "always"
}

// captureOnFailure saves what the browser showed while the page is still open.
func (h *harness) captureOnFailure() {
	if !h.keepArtifacts() {
		return
	}
	shot := filepath.Join(h.Artifacts, "screenshot.png")
	if _, err := h.Page.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(shot), Timeout: playwright.Float(10_000)}); err != nil {
		h.t.Logf("screenshot failed: %v", err)
	}
	if h.Model != nil {
		if resp, err := httpGet(h.Model.adminURL() + "/_requests"); err == nil {
			_ = os.WriteFile(filepath.Join(h.Artifacts, "model-requests.json"), resp, 0o644)
		}
	}
}

// finish runs after code-server (or the test's window on the shared one)
// and the model have stopped. On failure it
// keeps the artifacts folder, adds the console and the product's own logs to
// it and prints one line saying where; a passing test keeps only the
// screenshots it took on purpose (h.shot), or nothing.
func (h *harness) finish() {
	if !h.keepArtifacts() {
		if h.keepShots {
			pruneExceptPNG(h.Artifacts)
		} else {
			removeArtifactsDir(h.Artifacts)
		}
		return
	}
	_ = os.WriteFile(filepath.Join(h.Artifacts, "console.log"),
		[]byte(strings.Join(h.Console.snapshot(), "\n")+"\n"), 0o644)
	var copied int
	if h.shared != nil {
		copied = h.shared.copyArtifacts(h.Artifacts)
	} else {
		copied = copyLogs(h.Dirs.userData, filepath.Join(h.Artifacts, "user-data"))
	}
	var names []string
	files := 0
	_ = filepath.WalkDir(h.Artifacts, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files++
			if filepath.Dir(p) == h.Artifacts {
				names = append(names, d.Name())
			}
		}
		return nil
	})
	note := ""
	if copied == 0 {
		note = " (no log files were found under the user-data dir)"
	}
	h.t.Logf("e2e artifacts for %s: %s (%d files: %s, user-data/)%s", h.t.Name(), h.Artifacts, files, strings.Join(names, ", "), note)
}

// pruneExceptPNG removes everything in dir but its top-level screenshots.
func pruneExceptPNG(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".png") {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// copyLogs copies the product's logs out of a user-data dir before it is
// deleted: VS Code's own logs (extension host, output channels, where an
// extension's LogOutputChannel lands) and any file in GoVibe's storage, which
// is where the sidecar log lives.
func copyLogs(userData, dst string) int { return copyLogsSince(userData, dst, time.Time{}) }

// copyLogsSince is copyLogs of the files written since a time: the shared
// code-server's user-data dir holds every earlier test's logs too.
func copyLogsSince(userData, dst string, since time.Time) int {
	n := 0
	_ = filepath.WalkDir(userData, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if !since.IsZero() {
			if info, err := d.Info(); err != nil || info.ModTime().Before(since) {
				return nil
			}
		}
		rel, _ := filepath.Rel(userData, p)
		lower := strings.ToLower(rel)
		// GoVibe's snapshot store is a git object database: bulky and no help
		// when reading a failure.
		keep := strings.HasPrefix(rel, "logs"+string(filepath.Separator)) ||
			(strings.Contains(lower, "govibe") && !strings.Contains(lower, string(filepath.Separator)+"snapshots"+string(filepath.Separator))) ||
			strings.HasSuffix(lower, ".log") || rel == filepath.Join("User", "settings.json")
		if !keep {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 20<<20 {
			return nil
		}
		if copyFile(p, filepath.Join(dst, rel)) == nil {
			n++
		}
		return nil
	})
	return n
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func sanitize(name string) string { return unsafeName.ReplaceAllString(name, "_") }
