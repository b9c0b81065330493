package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The reconcile demo from the VibeOS document: "/reconcile" drafts the
// snake game's Vibe Manifest, the user approves it in the Reconcile panel,
// and the loop (specifier, coder, auditor) builds a React + TypeScript
// snake (400×400 canvas, length 3, arrow keys, death on wall or self,
// score) until its vitest suite passes, in at most 10 loops. The game's
// own tests then pass in the workspace, and the built game, opened in
// Chromium, scores when the arrow keys steer the snake onto the food.
//
// The model is scripted (e2e/testdata/snake holds what each agent
// writes); everything else is real: the panel, the scoped agents, the
// path rules, vitest run by the auditor, snapshots, the build.
func TestScenarioReconcileSnakeGame(t *testing.T) {
	data := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "snake", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write := func(path, name string) modelToolCall {
		return toolCall("write_file", map[string]any{"filePath": path, "content": data(name)})
	}
	calls := func(cs ...modelToolCall) modelReply { return modelReply{ToolCalls: cs} }
	// First match wins: the read of the first cut comes before the rule
	// on its path, the last write of loop 2 (index.html) too.
	rules := modelRules{Rules: []modelRule{
		{Match: "Turn this intent into a Vibe Manifest", On: "user", Reply: calls(write(".govibe/manifests/snake-game.json", "manifest.json"))},
		{Match: "snake-game.json", On: "tool", Reply: modelReply{Text: "The manifest is drafted: review it and approve it in the Reconcile panel."}},
		{Match: "You are the Specifier", On: "user", Reply: calls(write("src/game.test.ts", "game.test.ts"))},
		{Match: "game.test.ts", On: "tool", Reply: modelReply{Text: "Tests written; they fail until the game exists."}},
		{Match: "You are the Coder. 1 tests fail", On: "user", Reply: calls(write("src/game.ts", "game.partial.ts"))},
		{Match: "You are the Coder. 2 tests fail", On: "user", Reply: calls(toolCall("read_file", map[string]any{"filePath": "src/game.ts"}))},
		{Match: "snake rules, first cut", On: "tool", Reply: calls(write("src/game.ts", "game.ts"), write("src/App.tsx", "App.tsx"),
			write("src/main.tsx", "main.tsx"), write("index.html", "index.html"))},
		{Match: "index.html", On: "tool", Reply: modelReply{Text: "The game is implemented."}},
		{Match: "src/game.ts", On: "tool", Reply: modelReply{Text: "A first cut: moving, turning and walls."}},
	}}
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: rules,
		Settings: map[string]any{"govibe.autoApprove.edits": true}})
	prepareSnakeWorkspace(t, h)
	wv := h.openGoVibe()

	h.sendChat(wv, "/reconcile a snake game in React and TypeScript: 400x400 canvas, length 3, arrow keys, death on wall or self, score")
	// .govibe/ is protected: the drafted manifest is confirmed like any GoVibe file.
	card := wv.Locator(selConfirmCard + "[data-kind=edit]")
	h.expectVisible(card, "the manifest's confirmation card")
	h.expectConfirmFits(wv, card, "manifest-confirm")
	if err := card.Locator(selConfirmAllow).Click(); err != nil {
		t.Fatalf("accept the manifest: %v", err)
	}
	panel := wv.Locator(selReconcilePanel)
	h.expectText(panel.Locator(selReconcilePhase), "awaiting approval")
	if err := h.Expect.Locator(wv.Locator(selModePicker)).ToHaveAttribute("data-value", "reconcile"); err != nil {
		t.Fatalf("the header's mode picker does not show reconcile: %v", err)
	}
	edit := panel.Locator(selManifestEdit)
	if v, err := edit.InputValue(); err != nil || !strings.Contains(v, `"testCommand": "npx vitest run --reporter=json"`) {
		t.Fatalf("the panel does not show the drafted manifest: %q %v", v, err)
	}
	h.expectInView(panel.Locator(selReconcileApprove), "the Approve button")
	h.shot("reconcile-manifest")
	// Every text the loop line goes through is recorded in the page: which
	// agent is at work is a transient state a polling wait can miss (the
	// coder of a fast loop came and went between two polls).
	if _, err := wv.Locator("body").Evaluate(`(body, sel) => {
		window.__loopTexts = [];
		new MutationObserver(() => {
			const el = body.querySelector(sel);
			if (el) window.__loopTexts.push(el.textContent);
		}).observe(body, { subtree: true, childList: true, characterData: true });
	}`, selReconcileLoop); err != nil {
		t.Fatal(err)
	}
	if err := panel.Locator(selReconcileApprove).Click(); err != nil {
		t.Fatalf("approve: %v", err)
	}

	// The loop runs, naming the agent at work, and ends Ready.
	if err := h.Expect.Locator(panel.Locator(selReconcilePhase)).ToHaveText("Ready", playwright.LocatorAssertionsToHaveTextOptions{
		Timeout: playwright.Float(400_000)}); err != nil {
		h.shot("reconcile-not-ready")
		t.Fatalf("the run never reached Ready: %v", err)
	}
	h.expectText(panel.Locator(selReconcileLoop), "Loop 2/10")
	seen, err := wv.Locator("body").Evaluate(`() => window.__loopTexts`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if texts := fmt.Sprint(seen); !strings.Contains(texts, "specifier:") || !strings.Contains(texts, "coder:") || !strings.Contains(texts, "auditor:") {
		t.Fatalf("the panel never named each agent at work; its loop line went through %s", texts)
	}
	bars := panel.Locator(selDiffBar)
	if err := h.Expect.Locator(bars).ToHaveCount(3); err != nil {
		t.Fatalf("the chart does not show the baseline and two loops: %v", err)
	}
	var values []string
	for i := 0; i < 3; i++ {
		v, _ := bars.Nth(i).GetAttribute("data-value")
		values = append(values, v)
	}
	if strings.Join(values, ",") != "1,2,0" {
		t.Fatalf("failing tests per loop %v, want baseline 1 (no game yet), 2, 0", values)
	}
	h.expectInView(panel.Locator(selDiffChart), "the diff chart")
	// The panel is not squeezed by the transcript: the chart keeps its height.
	if box, err := panel.Locator(selDiffChart).BoundingBox(); err != nil || box == nil || box.Height < 30 || box.Width < 200 {
		t.Fatalf("diff chart box %+v (%v): want at least 200×30 at the default sidebar width", box, err)
	}
	h.expectNoOverflow(wv, "the reconcile panel")
	h.shot("reconcile-ready")

	// The manifest file holds the run's status; the game's tests pass here.
	b, err := os.ReadFile(filepath.Join(h.Workspace, ".govibe", "manifests", "snake-game.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Metadata struct{ Approved bool }
		Status   struct {
			Phase       string
			CurrentLoop int
			Diff        int
		}
	}
	if err := json.Unmarshal(b, &m); err != nil || m.Status.Phase != "Ready" || m.Status.CurrentLoop != 2 || m.Status.Diff != 0 || !m.Metadata.Approved {
		t.Fatalf("manifest status %+v (%v)", m, err)
	}
	out := runIn(t, h.Workspace, "npx", "vitest", "run", "--reporter=json")
	var rep struct{ NumFailedTests, NumPassedTests int }
	if i := strings.Index(out, `{"numTotalTestSuites"`); i < 0 || json.NewDecoder(strings.NewReader(out[i:])).Decode(&rep) != nil || rep.NumFailedTests != 0 || rep.NumPassedTests != 7 {
		t.Fatalf("the game's own tests in the workspace: %+v\n%s", rep, out)
	}

	checkSnakeInBrowser(t, h)
}

// prepareSnakeWorkspace makes the workspace an npm project: React from the
// npm registry (through setup.sh's npm cache when it is there, so the test
// needs no network), vitest and esbuild linked from the repository's own
// node_modules (the versions the repository pins), so `npx vitest` and
// `npx esbuild` resolve as in any project.
func prepareSnakeWorkspace(t *testing.T, h *harness) {
	t.Helper()
	ws := h.Workspace
	// The workspace links to the repository's vitest and esbuild, and the
	// reconcile auditor runs vitest in the command sandbox, whose /tmp is
	// private: a repository under the host's /tmp would leave those links
	// dangling there, and the run would fail minutes later on npx's
	// registry fallback. Say so at once.
	if root, err := filepath.EvalSymlinks(h.root); err == nil && (root == "/tmp" || strings.HasPrefix(root, "/tmp/")) {
		t.Fatalf("the repository is under /tmp (%s): the command sandbox gives commands a private /tmp, so the workspace's links to the repository's vitest would not resolve; run the e2e tests from a clone outside /tmp", root)
	}
	pkg, err := os.ReadFile(filepath.Join("testdata", "snake", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ws, "package.json"), string(pkg))
	writeFile(t, filepath.Join(ws, ".gitignore"), "node_modules/\ndist/\n")
	args := []string{"install", "--no-audit", "--no-fund", "--loglevel=error"}
	// setup.sh stamps the cache once it holds every package.
	if cache := filepath.Join(cacheDir(h.root), "npm-snake"); fileExists(cache + ".stamp") {
		args = append(args, "--offline", "--cache", cache)
	} else {
		args = append(args, "--prefer-offline")
	}
	runIn(t, ws, "npm", args...)
	bin := filepath.Join(ws, "node_modules", ".bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{
		{filepath.Join(h.root, "node_modules", "vitest"), filepath.Join(ws, "node_modules", "vitest")},
		{filepath.Join(h.root, "node_modules", "esbuild"), filepath.Join(ws, "node_modules", "esbuild")},
		{"../vitest/vitest.mjs", filepath.Join(bin, "vitest")},
		{"../esbuild/bin/esbuild", filepath.Join(bin, "esbuild")},
	} {
		// The repository's own packages: a link to a missing one would
		// only fail later, as a test command the workspace cannot run.
		if target := l[0]; filepath.IsAbs(target) {
			if _, err := os.Stat(target); err != nil {
				t.Fatalf("%s is missing (%v): run make deps in the repository", target, err)
			}
		}
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatalf("link %s: %v (run make deps in the repository)", l[0], err)
		}
	}
}

// checkSnakeInBrowser builds the game with esbuild, serves it, and plays:
// the canvas is 400×400, the score starts at 0, and steering up onto the
// food (three cells above the head) scores.
func checkSnakeInBrowser(t *testing.T, h *harness) {
	t.Helper()
	runIn(t, h.Workspace, "npx", "esbuild", "src/main.tsx", "--bundle", "--jsx=automatic", "--outfile=dist/game.js")
	srv := httptest.NewServer(http.FileServer(http.Dir(h.Workspace)))
	defer srv.Close()
	page, err := h.Page.Context().NewPage()
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	attachConsole(page, h.Console)
	if _, err := page.Goto(srv.URL + "/index.html"); err != nil {
		t.Fatal(err)
	}
	board := page.Locator("[data-testid=board]")
	if err := h.Expect.Locator(board).ToBeVisible(); err != nil {
		t.Fatalf("the game did not render: %v", err)
	}
	box, err := board.BoundingBox()
	if err != nil || box == nil || box.Width != 400 || box.Height != 400 {
		t.Fatalf("canvas box %+v (%v), want 400×400", box, err)
	}
	score := page.Locator("[data-testid=score]")
	h.expectText(score, "Score: 0")
	if err := page.Keyboard().Press("ArrowUp"); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(score).ToHaveText("Score: 1", playwright.LocatorAssertionsToHaveTextOptions{Timeout: playwright.Float(10_000)}); err != nil {
		t.Fatalf("steering onto the food did not score: %v", err)
	}
	// Steering left runs the snake into the left wall: the game ends.
	_ = page.Keyboard().Press("ArrowLeft")
	if err := h.Expect.Locator(page.Locator("[data-testid=status]")).ToHaveText("dead", playwright.LocatorAssertionsToHaveTextOptions{Timeout: playwright.Float(15_000)}); err != nil {
		t.Fatalf("the snake did not die at the wall: %v", err)
	}
	p := filepath.Join(h.Artifacts, "snake-game.png")
	h.keepShots = true
	if _, err := page.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(p)}); err != nil {
		t.Logf("screenshot: %v", err)
	}
}

func runIn(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s %s: %v", name, strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
