package e2e

import (
	"fmt"

	"github.com/playwright-community/playwright-go"
)

// A transient element (a countdown, a progress line) can come and go between
// two polls of a locator wait when the machine is busy, so waiting for it to
// be visible is a race. recordTexts installs a MutationObserver in the page
// that keeps every distinct text an element matching sel shows, from now on;
// recordedTexts reads them back once the flow is over.
func (h *harness) recordTexts(wv playwright.FrameLocator, key, sel string) {
	h.t.Helper()
	if _, err := wv.Locator("body").Evaluate(`(body, a) => {
		window.__e2eTexts = window.__e2eTexts || {};
		const seen = window.__e2eTexts[a.key] = [];
		const note = () => {
			for (const el of body.querySelectorAll(a.sel)) {
				const t = el.textContent;
				if (!seen.includes(t)) seen.push(t);
			}
		};
		note();
		new MutationObserver(note).observe(body, { subtree: true, childList: true, characterData: true });
	}`, map[string]any{"key": key, "sel": sel}); err != nil {
		h.t.Fatalf("install the text recorder for %s: %v", sel, err)
	}
}

func (h *harness) recordedTexts(wv playwright.FrameLocator, key string) []string {
	h.t.Helper()
	v, err := wv.Locator("body").Evaluate(`(body, key) => (window.__e2eTexts || {})[key] || []`, key)
	if err != nil {
		h.t.Fatalf("read the text recorder %s: %v", key, err)
	}
	var out []string
	if arr, ok := v.([]any); ok {
		for _, x := range arr {
			out = append(out, fmt.Sprint(x))
		}
	}
	return out
}
