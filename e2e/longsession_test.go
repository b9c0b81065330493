package e2e

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The long-session benchmark (make bench): a 5,000-message session with
// tool cards of up to 8.5 KB, imported into the running sidecar's store and
// opened in the real webview. It reports the open time, the p95 frame time
// while scrolling up through it (median of 3 rounds) against a static
// reference scrolled the same way in the same run, and heap growth per
// message. It runs only when GOVIBE_E2E_BENCH=1 (make bench sets it): it
// measures, it tests nothing the scenarios do not. GOVIBE_E2E_TRACE=file
// also writes a Chromium performance trace of the scrolling (JS samples
// included) to file.
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

	if tr := os.Getenv("GOVIBE_E2E_TRACE"); tr != "" {
		// A Chromium performance trace of the scroll, with JS samples, for
		// chrome://tracing or a script (see longsession_test.go's header).
		br := sharedBrowser(t, h.env)
		if err := br.StartTracing(playwright.BrowserStartTracingOptions{Path: playwright.String(tr), Categories: []string{
			"devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "disabled-by-default-v8.cpu_profiler", "blink.user_timing", "toplevel"}}); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if _, err := br.StopTracing(); err != nil {
				t.Errorf("stop tracing: %v", err)
			}
		}()
	}
	// Three rounds, each scrolling the transcript further up through rows
	// (and pages) not seen yet, each next to the reference: the same scroll
	// over a static copy of the rendered rows, in the same frame, which is
	// what the browser alone costs on this machine at this moment.
	ours := make([]float64, 0, 3)
	refs := make([]float64, 0, 3)
	for round := 0; round < 3; round++ {
		ref, err := wv.Locator("[data-testid=transcript]").Evaluate(referenceScrollJS, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := wv.Locator("[data-testid=transcript]").Evaluate(`el => (`+scrollLoopJS+`)(el)`, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := toFloat(ref)
		g, _ := toFloat(got)
		refs = append(refs, r)
		ours = append(ours, g)
	}
	heapAfter := jsHeap(t, wv)
	perMsg := float64(heapAfter-heapBefore) / float64(n)
	frame, refFrame := median3(ours), median3(refs)
	line := fmt.Sprintf("long session (%d messages): open %d ms, scroll frame p95 %.1f ms vs %.1f ms static reference (%.2fx; median of 3: %v vs %v), heap %+.1f KB per message",
		n, open.Milliseconds(), frame, refFrame, frame/refFrame, rounded(ours), rounded(refs), perMsg/1024)
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

// scrollLoopJS scrolls el up 240 px a frame for 240 frames, as a wheel
// would, and returns the p95 time between frames in ms.
const scrollLoopJS = `async (el) => {
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
}`

// referenceScrollJS runs the same loop over a static scroller laid over
// the transcript, holding the rows now rendered repeated to 70,000 px, and
// removes it again.
const referenceScrollJS = `async (el) => {
  const ref = document.createElement('div');
  ref.className = 'vlist';
  const box = el.getBoundingClientRect();
  ref.style.cssText = 'position:fixed;z-index:1000;overflow-y:auto;background:var(--vscode-sideBar-background);left:' + box.left + 'px;top:' + box.top + 'px;width:' + box.width + 'px;height:' + box.height + 'px';
  const inner = document.createElement('div');
  inner.className = 'vlist-inner';
  const rows = Array.from(el.querySelectorAll('.vrow')).map((r) => r.outerHTML).join('');
  ref.appendChild(inner);
  document.body.appendChild(ref);
  inner.innerHTML = rows;
  const per = Math.max(1, inner.scrollHeight);
  inner.innerHTML = rows.repeat(Math.ceil(70000 / per));
  ref.scrollTop = ref.scrollHeight;
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const p95 = await (` + scrollLoopJS + `)(ref);
  ref.remove();
  return p95;
}`

func median3(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func rounded(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Round(x*10) / 10
	}
	return out
}
