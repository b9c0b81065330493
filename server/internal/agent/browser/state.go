package browser

import (
	"fmt"
	"strings"

	"github.com/playwright-community/playwright-go"
)

// TreeBudget bounds the accessibility tree sent to the model each step.
const TreeBudget = 6000

// State renders what the model sees after every action: URL, title, the
// page's accessibility tree (Playwright's ARIA snapshot, which names every
// role, label and text a selector can target) trimmed to TreeBudget, and
// the console errors and refused requests since the previous step.
func (s *Session) State() string {
	text, _ := s.state()
	return text
}

func (s *Session) state() (string, notes) {
	p := s.Page()
	var b strings.Builder
	title, _ := p.Title()
	fmt.Fprintf(&b, "URL: %s\nTitle: %s\n", p.URL(), title)
	tree, err := p.Locator("body").AriaSnapshot(playwright.LocatorAriaSnapshotOptions{Timeout: playwright.Float(5000)})
	switch {
	case err != nil:
		fmt.Fprintf(&b, "Accessibility tree: unavailable (%v)\n", firstLine(err.Error()))
	case len(tree) > TreeBudget:
		fmt.Fprintf(&b, "Accessibility tree (first %d of %d characters; use getText with a selector for more):\n%s\n…\n", TreeBudget, len(tree), cutLines(tree, TreeBudget))
	default:
		fmt.Fprintf(&b, "Accessibility tree:\n%s\n", tree)
	}
	n := s.drain()
	if len(n.console) > 0 {
		fmt.Fprintf(&b, "Console errors:\n- %s\n", strings.Join(n.console, "\n- "))
	}
	if len(n.blocked) > 0 {
		fmt.Fprintf(&b, "Requests refused by the network policy:\n- %s\n", strings.Join(n.blocked, "\n- "))
	}
	return b.String(), n
}

// cutLines cuts at the last line break within n bytes.
func cutLines(s string, n int) string {
	s = s[:n]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		return s[:i]
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
