package e2e

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// browserProcesses are the Chromium processes of this test's product:
// marked, and running on a browser sub-agent's temporary profile.
func (h *harness) browserProcesses() []procInfo {
	var out []procInfo
	for _, p := range markedProcesses(h.CS.Mark) {
		if strings.Contains(p.cmdline, "govibe-browser-") {
			out = append(out, p)
		}
	}
	return out
}

// The packaged extension runs browser_sub_agent (once the user allows the
// run) with what it ships: the
// bundled playwright driver, the editor's own node, the system Chromium.
// govibe.web.allowHosts lets it open a page on 127.0.0.1 (allowLocalhost
// stays off); the sub-agent reads it, the main agent gets the structured
// result, and no Chromium survives the run.
func TestScenarioBrowserSubAgentThroughAllowHosts(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int64
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><html><head><title>Team page</title></head><body><h1 id="hi">Hello from the team page</h1></body></html>`)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	page := fmt.Sprintf("http://127.0.0.1:%d/", ln.Addr().(*net.TCPAddr).Port)

	h := newHarness(t, harnessOptions{Extension: true, Settings: map[string]any{"govibe.web.allowHosts": []string{"127.0.0.1"}},
		ModelRules: modelRules{Rules: []modelRule{
			{Match: `"status": "success"`, On: "tool", Reply: modelReply{Text: "The team page says hello."}},
			// The sub-agent's screenshot is saved: it reports.
			{Match: "saved ", On: "tool", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("done", map[string]any{
				"status": "success", "summary": "Read the heading.", "extracted": "Hello from the team page"})}}},
			// The sub-agent's first request: the task and the opened page.
			{Match: "The browser opened", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("screenshot", map[string]any{})}}},
			{Match: "team page in a browser", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("browser_sub_agent", map[string]any{
				"task": "Read the heading of the page", "url": page})}}},
		}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "Open the team page in a browser")
	// The run is confirmed like a web fetch, on a tool card naming it.
	card := wv.Locator(selConfirmCard + "[data-kind=tool]")
	h.expectText(card, "browser_sub_agent")
	if err := card.Locator(selConfirmAllow).Click(); err != nil {
		t.Fatalf("click Allow on the browser run: %v", err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), "The team page says hello.")
	card = wv.Locator(selToolCard + "[data-status=done]:has(.tool-name:text-is('browser_sub_agent'))")
	h.expectVisible(card, "the browser sub-agent's card")
	h.expectInlineScreenshot(card)
	h.shot("browser-sub-agent")
	// A click opens it full size, in an editor tab.
	if err := card.Locator(selScreenshot).Click(); err != nil {
		t.Fatalf("click the screenshot: %v", err)
	}
	h.expectVisible(h.editorTab(".png"), "the screenshot's editor tab")

	var result string
	for _, r := range chatRequests(h.Model.recorded(t)) {
		for _, m := range r.Messages {
			if m.Role == "tool" && strings.Contains(m.Content, `"status": "success"`) {
				result = m.Content
			}
		}
	}
	if !strings.Contains(result, `"title": "Team page"`) || !strings.Contains(result, `"extracted": "Hello from the team page"`) ||
		!strings.Contains(result, `"finalUrl": "`+page+`"`) {
		t.Fatalf("the main agent got:\n%s", result)
	}
	if hits.Load() == 0 {
		t.Fatal("the page was never requested")
	}
	// The tool returns after the browser is closed: nothing of it is left.
	if left := h.browserProcesses(); len(left) > 0 {
		t.Fatalf("browser processes survived the run: %v", left)
	}
}

// expectInlineScreenshot: the card shows one screenshot inline, loaded
// (decoded: the webview's CSP and resource roots let it through) and no
// wider than the card.
func (h *harness) expectInlineScreenshot(card playwright.Locator) {
	h.t.Helper()
	h.expectInlineImage(card, selScreenshot, "/browser/", "the inline screenshot")
}

// expectInlineImage: the card shows one image inline (sel holds its img),
// loaded from the folder named by dir, decoded under the webview's CSP and
// resource roots, and no wider than the card.
func (h *harness) expectInlineImage(card playwright.Locator, sel, dir, what string) {
	h.t.Helper()
	img := card.Locator(sel + " img")
	h.expectVisible(img, what)
	got, err := img.Evaluate(`async (img) => {
		img.scrollIntoView({ block: 'nearest' });
		await img.decode();
		const card = img.closest('[data-testid=tool-card]').getBoundingClientRect();
		return { natural: img.naturalWidth, shown: img.getBoundingClientRect().width, card: card.width, src: img.getAttribute('src') };
	}`, nil)
	if err != nil {
		h.t.Fatalf("%s did not load: %v", what, err)
	}
	m, _ := got.(map[string]any)
	num := func(k string) float64 {
		switch v := m[k].(type) {
		case int:
			return float64(v)
		case float64:
			return v
		}
		return 0
	}
	if num("natural") == 0 || num("shown") == 0 || num("shown") > num("card")+0.5 || !strings.Contains(fmt.Sprint(m["src"]), dir) {
		h.t.Fatalf("%s: %v", what, m)
	}
	h.t.Logf("%s: %v", what, m)
}
