package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// frameStats is one scripted scroll as scrollJS measures it: the time
// between animation frames (requestAnimationFrame callbacks) while the
// scroller moves 240 px a frame.
type frameStats struct {
	Deltas   []float64 `json:"deltas"`
	Scrolled float64   `json:"scrolled"`
	Grew     int       `json:"grew"`
	Elements int       `json:"elements"`
	Error    string    `json:"error"`
	// Computed from Deltas by summarize.
	Frames              int
	P50, P95, Max, Mean float64
	Over50              int
}

func (s frameStats) fps() float64 { return 1000 / s.Mean }

func (s frameStats) summarize() frameStats {
	d := slices.Clone(s.Deltas)
	slices.Sort(d)
	s.Frames, s.P50, s.P95, s.Max, s.Mean, s.Over50 = len(d), 0, 0, 0, 0, 0
	if len(d) == 0 {
		return s
	}
	q := func(p float64) float64 { return d[min(len(d)-1, int(float64(len(d))*p))] }
	s.P50, s.P95, s.Max = q(0.5), q(0.95), d[len(d)-1]
	for _, x := range d {
		s.Mean += x
		if x > 50 {
			s.Over50++
		}
	}
	s.Mean /= float64(len(d))
	return s
}

// add joins two runs of one scroll.
func (s frameStats) add(o frameStats) frameStats {
	s.Deltas = append(slices.Clone(s.Deltas), o.Deltas...)
	s.Scrolled += o.Scrolled
	s.Grew += o.Grew
	s.Elements = o.Elements
	return s.summarize()
}

// scrollJS scrolls el by step px a frame (negative: up) for at most
// frames frames, as a wheel would (the webview pages older messages in on
// wheel input at the top), and measures each frame. With untilTop it
// stops once the top has held for 30 frames with no page loading (the
// whole session is loaded). grew counts the older pages that loaded (the
// "Loading earlier messages" line appearing); scrolled the distance moved
// by the scroll itself (not the jumps that keep the view in place when
// rows are prepended); elements the page's element count at the end (the
// DOM the browser had to keep). A frame that does not come within 2 s
// (a hidden page gets none) ends the run with an error.
const scrollJS = `async (el, o) => {
  const deltas = [];
  let grew = 0, scrolled = 0, still = 0, loading = false;
  let last = performance.now();
  for (let i = 0; i < o.frames; i++) {
    const before = el.scrollTop;
    el.scrollTop = before + o.step;
    if (o.step < 0) el.dispatchEvent(new WheelEvent('wheel', { deltaY: o.step, bubbles: true }));
    const framed = await Promise.race([
      new Promise((r) => requestAnimationFrame(() => r(true))),
      new Promise((r) => setTimeout(() => r(false), 2000)),
    ]);
    if (!framed) return JSON.stringify({ error: 'no animation frame within 2 s (is the page hidden?)' });
    const now = performance.now();
    deltas.push(now - last);
    last = now;
    scrolled += Math.min(Math.abs(o.step), Math.abs(el.scrollTop - before));
    const l = !!document.querySelector('.loading-more');
    if (l && !loading) grew++;
    loading = l;
    still = l ? 0 : still + 1;
    if (o.untilTop && el.scrollTop === 0 && still >= 30) break;
  }
  return JSON.stringify({ deltas, scrolled, grew, elements: document.getElementsByTagName('*').length });
}`

// snapshotJS copies what the reference page needs from the webview: its
// style sheets, the theme variables on <html>, the body's classes, the
// transcript's size and the rows it has rendered (deduplicated by key,
// collected over several scroll positions).
const snapshotJS = `(el) => {
  const rows = (window.__benchRows = window.__benchRows || []);
  let css = '';
  for (const sheet of Array.from(document.styleSheets)) {
    try { css += Array.from(sheet.cssRules).map((r) => r.cssText).join('\n') + '\n'; } catch (e) { /* cross-origin */ }
  }
  const seen = new Set(rows.map((r) => r.key));
  for (const r of Array.from(el.querySelectorAll('.vrow'))) {
    const key = r.getAttribute('data-key') || '';
    if (!seen.has(key)) { seen.add(key); rows.push({ key, html: r.outerHTML }); }
  }
  const box = el.getBoundingClientRect();
  return JSON.stringify({ css, rootStyle: document.documentElement.getAttribute('style') || '',
    rootClass: document.documentElement.className, bodyClass: document.body.className,
    width: box.width, height: box.height, rows });
}`

type snapshot struct {
	CSS       string  `json:"css"`
	RootStyle string  `json:"rootStyle"`
	RootClass string  `json:"rootClass"`
	BodyClass string  `json:"bodyClass"`
	Width     float64 `json:"width"`
	Height    float64 `json:"height"`
	Rows      []struct {
		Key  string `json:"key"`
		HTML string `json:"html"`
	} `json:"rows"`
}

// referencePage opens the static reference in the same Chromium, in a
// browser context (a window) of its own: a second tab of the workbench's
// window would hide one of the two, and a hidden page gets no animation
// frames. The page is one HTML page with the webview's style sheets and theme, a
// scroller of the transcript's size holding the rows the webview rendered
// during the bench, repeated until it is as tall as the distance a round
// scrolls. No script runs on it: its frame time is what scrolling these
// rows costs the browser alone on this machine at this moment.
func referencePage(t *testing.T, h *harness, snap snapshot, distance float64) playwright.Page {
	t.Helper()
	bctx, err := h.Browser.NewContext(playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1400, Height: 900}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bctx.Close() })
	page, err := bctx.NewPage()
	if err != nil {
		t.Fatal(err)
	}
	var rows []byte
	for _, r := range snap.Rows {
		rows = append(rows, r.HTML...)
	}
	html := fmt.Sprintf(`<!DOCTYPE html><html class=%q style=%q><head><meta charset="utf-8"><style>%s</style></head>
<body class=%q style="margin:0"><div class="vlist" data-testid="reference" style="width:%.0fpx;height:%.0fpx;overflow-y:auto"><div class="vlist-inner"></div></div></body></html>`,
		snap.RootClass, snap.RootStyle, snap.CSS, snap.BodyClass, snap.Width, snap.Height)
	if err := page.SetContent(html); err != nil {
		t.Fatal(err)
	}
	// Repeat the rows until the content is taller than a round scrolls.
	if _, err := page.Locator("[data-testid=reference]").Evaluate(`(el, o) => {
  const inner = el.firstElementChild;
  inner.innerHTML = o.rows;
  const per = Math.max(1, inner.scrollHeight);
  inner.innerHTML = o.rows.repeat(Math.ceil((o.distance + el.clientHeight) / per));
}`, map[string]any{"rows": string(rows), "distance": distance}); err != nil {
		t.Fatal(err)
	}
	return page
}

func runScroll(t *testing.T, l playwright.Locator, opts map[string]any) frameStats {
	t.Helper()
	v, err := l.Evaluate(scrollJS, opts)
	if err != nil {
		t.Fatal(err)
	}
	var s frameStats
	if err := json.Unmarshal([]byte(fmt.Sprint(v)), &s); err != nil {
		t.Fatalf("scroll stats %.200v: %v", v, err)
	}
	if s.Error != "" {
		t.Fatal(s.Error)
	}
	return s.summarize()
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

func medianOf(ss []frameStats, f func(frameStats) float64) float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = f(s)
	}
	return median(xs)
}

func rounded(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Round(x*100) / 100
	}
	return out
}
