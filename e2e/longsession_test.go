package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The long-session benchmark (make bench): a 5,000-message session with
// tool cards of up to 8.5 KB, imported into the running sidecar's store and
// opened in the real webview. It reports the open time; the frames while
// paging up to the first message; the frame times (requestAnimationFrame)
// of a scripted scroll through the loaded transcript against the same
// scroll of a static reference page in the same Chromium, in interleaved
// rounds (longsession_scroll_test.go); and heap growth per message. It runs only when GOVIBE_E2E_BENCH=1 (make bench sets it): it
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

	stateDir := h.sidecarStateDir()
	h.importLongSession(stateDir, n)

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
		// chrome://tracing or a script.
		br := h.Browser
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
	transcript := wv.Locator("[data-testid=transcript]")

	// Paging: up from the end for 600 frames, as a wheel would, loading
	// older pages on the way (in chunks, copying the rows rendered at each
	// stop for the reference page).
	var snap snapshot
	var paging frameStats
	for chunk := 0; chunk < 4; chunk++ {
		s := runScroll(t, transcript, map[string]any{"step": -240, "frames": 150, "untilTop": true})
		paging = paging.add(s)
		v, err := transcript.Evaluate(snapshotJS, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(fmt.Sprint(v)), &snap); err != nil {
			t.Fatal(err)
		}
		if s.Frames < 150 {
			break
		}
	}
	t.Logf("paged up %d frames (%.0f px, %d pages), %d distinct rows for the reference", paging.Frames, paging.Scrolled, paging.Grew, len(snap.Rows))

	// Scrolling: rounds of 240 frames of 240 px through the loaded
	// transcript (down, then up, ...), each next to the same scroll of the
	// static reference page, so that both sides of a round see the same
	// load on the machine; which side goes first alternates every two
	// rounds, so order and direction are not confounded. The figure is the
	// median of the rounds' ratios, also given per direction. One unmeasured pass down and up first: rows seen
	// for the first time were measured while paging, these rounds measure
	// scrolling itself.
	const rounds, frames, step = 8, 240, 240
	ref := referencePage(t, h, snap, frames*step)
	refList := ref.Locator("[data-testid=reference]")
	for _, dir := range []int{step, -step} {
		runScroll(t, transcript, map[string]any{"step": dir, "frames": frames})
		runScroll(t, refList, map[string]any{"step": dir, "frames": frames})
	}
	var ours, refs []frameStats
	var ratios, meanRatios, down, up []float64
	for round := 0; round < rounds; round++ {
		dir := step
		if round%2 == 1 {
			dir = -step
		}
		opts := map[string]any{"step": dir, "frames": frames}
		var o, r frameStats
		if (round/2)%2 == 0 {
			r, o = runScroll(t, refList, opts), runScroll(t, transcript, opts)
		} else {
			o, r = runScroll(t, transcript, opts), runScroll(t, refList, opts)
		}
		ours, refs = append(ours, o), append(refs, r)
		t.Logf("round %d: p95 %.1f vs %.1f ms, scrolled %.0f vs %.0f px", round+1, o.P95, r.P95, o.Scrolled, r.Scrolled)
		ratios = append(ratios, o.P95/r.P95)
		meanRatios = append(meanRatios, o.Mean/r.Mean)
		if dir > 0 {
			down = append(down, o.P95/r.P95)
		} else {
			up = append(up, o.P95/r.P95)
		}
	}
	heapAfter := jsHeap(t, wv)
	// The first page is the host's FIRST_PAGE (40 messages), each older
	// page 200 (session/load's default).
	loaded := min(n, 40+200*paging.Grew)
	perMsg := float64(heapAfter-heapBefore) / float64(loaded)
	p95 := func(s frameStats) float64 { return s.P95 }
	p50 := func(s frameStats) float64 { return s.P50 }
	fps := func(s frameStats) float64 { return s.fps() }
	elems := func(s frameStats) float64 { return float64(s.Elements) }
	dist := func(s frameStats) float64 { return s.Scrolled }
	lines := []string{
		fmt.Sprintf("long session (%d messages): open %d ms, JS heap %+.1f MB for the %d messages loaded (%+.1f KB a message)",
			n, open.Milliseconds(), float64(heapAfter-heapBefore)/(1<<20), loaded, perMsg/1024),
		fmt.Sprintf("long session paging up: %d frames (%.0f px), %d older pages prepended, frame p50 %.1f ms, p95 %.1f ms, max %.0f ms, %d frames over 50 ms",
			paging.Frames, paging.Scrolled, paging.Grew, paging.P50, paging.P95, paging.Max, paging.Over50),
		fmt.Sprintf("long session scroll (median of %d rounds of %d frames, %d px a frame): p95 %.1f ms, p50 %.1f ms, %.0f fps; static reference p95 %.1f ms, p50 %.1f ms, %.0f fps",
			rounds, frames, step, medianOf(ours, p95), medianOf(ours, p50), medianOf(ours, fps), medianOf(refs, p95), medianOf(refs, p50), medianOf(refs, fps)),
		fmt.Sprintf("long session scroll vs reference: p95 ratio %.2fx (down %.2fx, up %.2fx; rounds %v), mean-frame ratio %.2fx (rounds %v); DOM %.0f vs %.0f elements, scrolled %.0f vs %.0f px a round",
			median(ratios), median(down), median(up), rounded(ratios), median(meanRatios), rounded(meanRatios), medianOf(ours, elems), medianOf(refs, elems), medianOf(ours, dist), medianOf(refs, dist)),
	}
	for _, l := range lines {
		fmt.Println(l)
		t.Log(l)
	}
	h.shot("long-session")
	// The goal: scrolling the session costs at most twice what the browser
	// alone needs for the same rows (GOVIBE_E2E_BENCH_MAX_RATIO overrides).
	limit := 2.0
	if v, err := strconv.ParseFloat(os.Getenv("GOVIBE_E2E_BENCH_MAX_RATIO"), 64); err == nil && v > 0 {
		limit = v
	}
	if r := median(ratios); r > limit {
		t.Errorf("long session: scroll p95 is %.2fx the static reference (goal at most %.2fx)", r, limit)
	}
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
