package e2e

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The long-session benchmark (make bench): a 5,000-message session with
// tool cards of up to 8.5 KB, imported into the running sidecar's store and
// opened in the real webview. It reports the open time, the p95 frame time
// while scrolling, and heap growth per message. It runs only when
// GOVIBE_E2E_BENCH=1 (make bench sets it): it measures, it tests nothing
// the scenarios do not.
func TestBenchLongSession(t *testing.T) {
	if os.Getenv("GOVIBE_E2E_BENCH") != "1" {
		t.Skip("a benchmark: set GOVIBE_E2E_BENCH=1 (make bench does)")
	}
	n := 5000
	if v, err := strconv.Atoi(os.Getenv("GOVIBE_E2E_BENCH_MESSAGES")); err == nil && v > 0 {
		n = v
	}
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{{Match: "", Reply: modelReply{Text: "ok"}}}}})
	wv := h.openGoVibe()

	// The sidecar's store lives under the workspace storage of user-data.
	var stateDir string
	deadline := time.Now().Add(30 * time.Second)
	for stateDir == "" && time.Now().Before(deadline) {
		_ = filepath.WalkDir(h.Dirs.userData, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Name() == "sessions.db" {
				stateDir = filepath.Dir(p)
				return fs.SkipAll
			}
			return nil
		})
		if stateDir == "" {
			time.Sleep(200 * time.Millisecond) // the sidecar opens its store in the background
		}
	}
	if stateDir == "" {
		t.Fatal("no sessions.db under the user-data dir")
	}
	doc := filepath.Join(t.TempDir(), "long.json")
	run := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Dir = h.root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	run("go", "run", "./server/internal/bench/storebench", "-doc", strconv.Itoa(n), "-out", doc)
	run(filepath.Join(h.root, "bin", "govibe"), "session", "import", doc, "--state-dir", stateDir, "--workspace", h.Workspace)

	// A new chat makes the host list sessions again, the imported one included.
	if err := wv.Locator(selNewSession).Click(); err != nil {
		t.Fatal(err)
	}
	heapBefore := jsHeap(t, wv)
	items := h.openSessionList(wv)
	item := items.Filter(playwright.LocatorFilterOptions{HasText: fmt.Sprintf("Long session (%d messages)", n)})
	start := time.Now()
	if err := item.Locator("button.session-pick").Click(); err != nil {
		t.Fatal(err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), fmt.Sprintf("Message %d explains", n-1))
	open := time.Since(start)

	p95, err := wv.Locator("[data-testid=transcript]").Evaluate(`async (el) => {
	  const deltas = [];
	  let last = performance.now();
	  for (let i = 0; i < 240; i++) {
	    el.scrollTop = Math.max(0, el.scrollTop - 240);
	    el.dispatchEvent(new WheelEvent('wheel', { deltaY: -240 }));
	    await new Promise((r) => requestAnimationFrame(r));
	    const now = performance.now();
	    deltas.push(now - last);
	    last = now;
	  }
	  deltas.sort((a, b) => a - b);
	  return deltas[Math.floor(deltas.length * 0.95)];
	}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	heapAfter := jsHeap(t, wv)
	perMsg := float64(heapAfter-heapBefore) / float64(n)
	frame, _ := toFloat(p95)
	line := fmt.Sprintf("long session (%d messages): open %d ms, scroll frame p95 %.1f ms, heap %+.1f KB per message",
		n, open.Milliseconds(), frame, perMsg/1024)
	fmt.Println(line)
	t.Log(line)
	h.shot("long-session")
}

// jsHeap is the webview renderer's used JS heap (Chromium's
// performance.memory), after a collection when the page allows one.
func jsHeap(t *testing.T, wv playwright.FrameLocator) int64 {
	t.Helper()
	v, err := wv.Locator("body").Evaluate(`() => { if (window.gc) window.gc(); return performance.memory ? performance.memory.usedJSHeapSize : 0; }`, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := toFloat(v)
	return int64(f)
}
