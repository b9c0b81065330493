package e2e

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/playwright-community/playwright-go"
)

// Layout checks at the default sidebar width (1400×900 window): what a
// person must reach is inside the visible part of the view, checked with
// bounding boxes rather than by looking at screenshots.

// shot keeps a named screenshot of the current view among the test's
// artifacts, which are kept for every test that calls it (see finish).
func (h *harness) shot(name string) {
	h.t.Helper()
	h.keepShots = true
	p := filepath.Join(h.Artifacts, sanitize(name)+".png")
	if _, err := h.Page.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(p), Timeout: playwright.Float(10_000)}); err != nil {
		h.t.Logf("screenshot %s failed: %v", name, err)
	}
}

// viewBox is the part of the page where the GoVibe webview is visible.
func (h *harness) viewBox() playwright.Rect {
	h.t.Helper()
	frames := h.Page.Locator(selWebviewHost)
	n, err := frames.Count()
	if err != nil {
		h.t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		box, err := frames.Nth(i).BoundingBox()
		if err == nil && box != nil && box.Width > 0 && box.Height > 0 {
			return *box
		}
	}
	h.t.Fatal("no visible webview frame")
	return playwright.Rect{}
}

// expectInView fails unless l's whole bounding box lies inside the visible
// webview (so a person can see and click it without scrolling anything).
func (h *harness) expectInView(l playwright.Locator, what string) {
	h.t.Helper()
	h.expectVisible(l, what)
	view := h.viewBox()
	box, err := l.BoundingBox()
	if err != nil || box == nil {
		h.t.Fatalf("%s: no bounding box: %v", what, err)
	}
	const slack = 1
	if box.X < view.X-slack || box.Y < view.Y-slack || box.X+box.Width > view.X+view.Width+slack || box.Y+box.Height > view.Y+view.Height+slack {
		h.shot("layout-failure")
		h.t.Fatalf("%s is outside the visible view: box %+v, view %+v", what, *box, view)
	}
}

// expectButtonsInView checks every button of the pending confirmations.
func (h *harness) expectButtonsInView(wv playwright.FrameLocator, what string) {
	h.t.Helper()
	buttons := wv.Locator(selConfirmCard + " .confirm-actions vscode-button")
	n, err := buttons.Count()
	if err != nil || n == 0 {
		h.t.Fatalf("%s: no confirmation buttons (%v)", what, err)
	}
	for i := 0; i < n; i++ {
		b := buttons.Nth(i)
		label, _ := b.TextContent()
		h.expectInView(b, what+": button "+strings.TrimSpace(label))
	}
}

// overflowJS lists elements that stick out of their card on the right,
// skipping those inside a box that clips or scrolls horizontally (a code
// block may scroll; the card itself must not be widened).
const overflowJS = `() => {
  const out = [];
  for (const card of document.querySelectorAll('[data-testid=tool-card], [data-testid=confirm-card], [data-testid=message-user], [data-testid=message-assistant]')) {
    const right = card.getBoundingClientRect().right + 1;
    for (const el of card.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      // Text wider than its own box spills over without widening the box.
      const st = getComputedStyle(el);
      const spills = st.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0;
      if (r.right <= right && !spills) continue;
      let clipped = false;
      for (let p = el.parentElement; p && p !== card; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') { clipped = true; break; }
      }
      if (!clipped) out.push(card.dataset.testid + ' > ' + el.tagName.toLowerCase() + '.' + el.className + ' by ' + Math.max(Math.round(r.right - right), el.scrollWidth - el.clientWidth) + 'px');
    }
  }
  return out;
}`

// expectNoOverflow fails when an element is wider than its card.
func (h *harness) expectNoOverflow(wv playwright.FrameLocator, what string) {
	h.t.Helper()
	got, err := wv.Locator("body").Evaluate(overflowJS, nil)
	if err != nil {
		h.t.Fatalf("%s: overflow check: %v", what, err)
	}
	if list, _ := got.([]any); len(list) > 0 {
		h.shot("overflow-failure")
		h.t.Fatalf("%s: elements overflow their card horizontally: %v", what, list)
	}
}

var spaces = regexp.MustCompile(`\s+`)

// expectNewestInView checks that the last message of the transcript is
// visible (its bottom edge inside the view) after a send.
func (h *harness) expectNewestInView(wv playwright.FrameLocator, text string) {
	h.t.Helper()
	last := wv.Locator("[data-testid^=message-]").Last()
	h.expectText(last, text)
	view := h.viewBox()
	box, err := last.BoundingBox()
	if err != nil || box == nil {
		h.t.Fatalf("newest message: no bounding box: %v", err)
	}
	if box.Y+box.Height > view.Y+view.Height+1 || box.Y+box.Height < view.Y {
		h.shot("newest-not-visible")
		content, _ := last.TextContent()
		h.t.Fatalf("the newest message %q is not in view: box %+v, view %+v", spaces.ReplaceAllString(content, " "), *box, view)
	}
}
