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

// expectConfirmFits is the layout check of every scenario that shows a
// confirmation (edit, shell, question, plan review, MCP tool call): the
// card is pinned between the transcript and the input at full width and
// lies wholly in view, each of its buttons is in view, nothing in the
// confirmation area scrolls (no nested scrollbar), the command or answer
// box shows all its text, wrapped, and nothing overflows its card. It keeps
// a screenshot named shot.
func (h *harness) expectConfirmFits(wv playwright.FrameLocator, card playwright.Locator, shot string) {
	h.t.Helper()
	what := shot + " card"
	h.expectInView(card, what)
	buttons := card.Locator(".confirm-actions vscode-button, .question-options vscode-button")
	n, err := buttons.Count()
	if err != nil || n == 0 {
		h.t.Fatalf("%s: no buttons (%v)", what, err)
	}
	for i := 0; i < n; i++ {
		b := buttons.Nth(i)
		label, _ := b.TextContent()
		h.expectInView(b, what+": button "+strings.TrimSpace(spaces.ReplaceAllString(label, " ")))
	}
	got, err := card.Evaluate(confirmFitsJS, nil)
	if err != nil {
		h.t.Fatalf("%s: layout check: %v", what, err)
	}
	if list, _ := got.([]any); len(list) > 0 {
		h.shot(shot + "-layout-failure")
		h.t.Fatalf("%s does not fit:\n%v", what, list)
	}
	h.expectNoOverflow(wv, what)
	h.shot(shot)
}

// confirmFitsJS lists what is wrong with a confirmation card's layout.
const confirmFitsJS = `(card) => {
  const out = [];
  const area = card.closest('[data-testid=confirm-area]');
  if (!area) return ['the card is not in the pinned confirmation area'];
  const list = document.querySelector('[data-testid=transcript]');
  const input = document.querySelector('[data-testid=chat-input]');
  const a = area.getBoundingClientRect();
  if (list && list.getBoundingClientRect().bottom > a.top + 1) out.push('the transcript overlaps the confirmation area');
  if (input && input.getBoundingClientRect().top < a.bottom - 1) out.push('the confirmation area is not above the input');
  const c = card.getBoundingClientRect();
  if (c.width < a.width - 24) out.push('the card is not full width: ' + Math.round(c.width) + ' of ' + Math.round(a.width) + ' px');
  // While a confirmation waits the turn runs: Stop sits beside Send.
  const composer = document.querySelector('footer.composer');
  if (composer) {
    const cb = composer.getBoundingClientRect();
    for (const el of composer.querySelectorAll('.composer-bar > *')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.right > cb.right + 1 || r.left < cb.left - 1)) out.push('the composer\'s ' + (el.dataset.testid || el.className) + ' is cut off at its edge');
    }
  }
  for (const el of [area, ...area.querySelectorAll('*')]) {
    const st = getComputedStyle(el);
    const name = el.tagName.toLowerCase() + (el.dataset.testid ? '[' + el.dataset.testid + ']' : '.' + el.className);
    const scrollsY = /(auto|scroll)/.test(st.overflowY) || el.tagName === 'TEXTAREA';
    const scrollsX = /(auto|scroll)/.test(st.overflowX);
    if (scrollsY && el.scrollHeight > el.clientHeight + 1) out.push(name + ' scrolls vertically (' + el.scrollHeight + ' > ' + el.clientHeight + ' px)');
    if (scrollsX && el.scrollWidth > el.clientWidth + 1) out.push(name + ' scrolls horizontally (' + el.scrollWidth + ' > ' + el.clientWidth + ' px)');
  }
  return out;
}`

// overflowJS lists elements that stick out of their card on the right,
// skipping those inside a box that clips or scrolls horizontally (a code
// block may scroll; the card itself must not be widened). The composer
// counts as a card: its bar once pushed Send out of view while Stop showed.
const overflowJS = `() => {
  const out = [];
  for (const card of document.querySelectorAll('[data-testid=tool-card], [data-testid=confirm-card], [data-testid=message-user], [data-testid=message-assistant], footer.composer')) {
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
      if (!clipped) out.push((card.dataset.testid || card.className) + ' > ' + el.tagName.toLowerCase() + '.' + el.className + ' by ' + Math.max(Math.round(r.right - right), el.scrollWidth - el.clientWidth) + 'px');
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

// expectNotClipped fails when l's text is cut short (an ellipsis or a clip:
// its content is wider than its box).
func (h *harness) expectNotClipped(l playwright.Locator, what string) {
	h.t.Helper()
	h.expectVisible(l, what)
	got, err := l.Evaluate(`el => el.scrollWidth - el.clientWidth`, nil)
	if err != nil {
		h.t.Fatalf("%s: %v", what, err)
	}
	if px, _ := toFloat(got); px > 1 {
		h.shot("clipped")
		text, _ := l.TextContent()
		h.t.Fatalf("%s %q is cut short by %.0f px", what, text, px)
	}
}

// oneLineJS measures a line of text against its card: its height in lines
// (its box over its line height), whether it lies inside the card, and
// whether its text was cut (so the caller can say how it reads).
const oneLineJS = `(el) => {
  const st = getComputedStyle(el);
  const lh = parseFloat(st.lineHeight) || parseFloat(st.fontSize) * 1.4;
  const r = el.getBoundingClientRect();
  const card = el.closest('[data-testid=confirm-card], [data-testid=tool-card]');
  const c = card ? card.getBoundingClientRect() : r;
  return { lines: r.height / lh, inside: r.left >= c.left - 1 && r.right <= c.right + 1 && r.top >= c.top - 1 && r.bottom <= c.bottom + 1,
    cut: [el, ...el.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth + 1), width: r.width, cardWidth: c.width };
}`

// expectOneLine fails unless l is a single line of text lying inside its
// card (a path that wrapped mid-word took two or three).
func (h *harness) expectOneLine(l playwright.Locator, what string) {
	h.t.Helper()
	h.expectVisible(l, what)
	got, err := l.Evaluate(oneLineJS, nil)
	if err != nil {
		h.t.Fatalf("%s: %v", what, err)
	}
	m, _ := got.(map[string]any)
	lines, _ := toFloat(m["lines"])
	inside, _ := m["inside"].(bool)
	if lines > 1.5 || !inside {
		h.shot("one-line-failure")
		text, _ := l.TextContent()
		h.t.Fatalf("%s %q is not one line inside its card: %.1f lines, inside %v (%v)", what, text, lines, inside, m)
	}
}
