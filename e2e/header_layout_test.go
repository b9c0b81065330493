package e2e

import (
	"fmt"

	"github.com/playwright-community/playwright-go"
)

// headerJS measures the chat header: how many lines its items take (items
// whose vertical centres lie more than 6 px apart are on different lines)
// and which item reaches past the header's right edge.
const headerJS = `() => {
  const header = document.querySelector('header.header');
  if (!header) return { error: 'no header' };
  const hb = header.getBoundingClientRect();
  const items = [...header.querySelectorAll('.session-row > *, .model-bar > *, .model-bar .context > *')]
    .filter((el) => !el.classList.contains('session-menu') && !el.classList.contains('mode-menu') && !el.classList.contains('spacer'))
    .map((el) => ({ el, r: el.getBoundingClientRect() }))
    .filter((x) => x.r.width > 0 && x.r.height > 0);
  const centres = [];
  for (const { r } of items) {
    const c = r.top + r.height / 2;
    if (!centres.some((y) => Math.abs(y - c) <= 6)) centres.push(c);
  }
  const over = items
    .filter(({ r }) => r.right > hb.right + 0.5 || r.left < hb.left - 0.5)
    .map(({ el, r }) => (el.dataset.testid || el.className) + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
  return { lines: centres.length, over, width: Math.round(hb.width), scroll: header.scrollWidth > header.clientWidth + 1 };
}`

// expectCompactHeader checks the chat header at the current sidebar width:
// one heading above the chat (expectOneHeading), at most two lines of
// items, none past the header's edge, no horizontal scrolling. It keeps a
// screenshot named shot.
func (h *harness) expectCompactHeader(wv playwright.FrameLocator, shot string) {
	h.t.Helper()
	got, err := wv.Locator("body").Evaluate(headerJS, nil)
	if err != nil {
		h.t.Fatalf("header check: %v", err)
	}
	m, _ := got.(map[string]any)
	if e, ok := m["error"]; ok {
		h.t.Fatalf("header check: %v", e)
	}
	h.expectOneHeading()
	lines := fmt.Sprint(m["lines"])
	over, _ := m["over"].([]any)
	h.shot(shot)
	if lines != "1" && lines != "2" {
		h.t.Fatalf("the chat header takes %s rows at width %v, want at most 2", lines, m["width"])
	}
	if len(over) > 0 || m["scroll"] == true {
		h.t.Fatalf("header items overflow at width %v: %v (scrolls: %v)", m["width"], over, m["scroll"])
	}
}

// expectOneHeading checks, by bounding boxes, that the side bar shows one
// heading above the chat (issue 33 §5: there were three, "GoVibe", "Chat"
// and the session row): the side bar's title names GoVibe, no pane header
// sits between it and the chat's webview, which starts right under it, and
// the chat's own header is the first thing in the webview.
func (h *harness) expectOneHeading() {
	h.t.Helper()
	box := func(l playwright.Locator, what string) *playwright.Rect {
		h.t.Helper()
		b, err := l.BoundingBox()
		if err != nil || b == nil {
			h.t.Fatalf("%s has no box: %v", what, err)
		}
		return b
	}
	title := h.Page.Locator(selSideBarTitle)
	h.expectText(title, "GoVibe")
	tb := box(title, "the side bar's title")
	frame := box(h.Page.Locator(selWebviewHost).First(), "the chat's webview")
	if gap := frame.Y - (tb.Y + tb.Height); gap < -1 || gap > 4 {
		h.t.Fatalf("the chat starts %.0f px below the side bar's title (want it right under it: a heading in between?)", gap)
	}
	headers := h.Page.Locator(".part.sidebar " + selPaneHeader)
	n, err := headers.Count()
	if err != nil {
		h.t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		hd := headers.Nth(i)
		if vis, _ := hd.IsVisible(); !vis {
			continue
		}
		if b := box(hd, "a pane header"); b.Y < frame.Y {
			txt, _ := hd.TextContent()
			h.t.Fatalf("a pane header %q is stacked above the chat", txt)
		}
	}
	// Boxes in a frame are in the page's coordinates.
	hb := box(h.webview().Locator("header.header"), "the chat's header")
	if hb.Y-frame.Y > 8 {
		h.t.Fatalf("the chat's header is %.0f px into the webview, want it first", hb.Y-frame.Y)
	}
}
