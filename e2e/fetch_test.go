package e2e

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// web_fetch asks before any request leaves: the card shows the whole URL
// and the names of the headers it would send, fits the view, and "Always
// allow" fetches and writes the host's rule to the user's allow-rules
// file; the next fetch of that host runs without a card.
func TestScenarioWebFetchCardAlwaysAllow(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int64
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "release notes of %s: v2 is out", r.URL.Path)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	base := fmt.Sprintf("http://127.0.0.1:%d", ln.Addr().(*net.TCPAddr).Port)

	h := newHarness(t, harnessOptions{Extension: true, Settings: map[string]any{"govibe.web.allowHosts": []string{"127.0.0.1"}},
		ModelRules: modelRules{Rules: []modelRule{
			{Match: "release notes of /second", On: "tool", Reply: modelReply{Text: "Second page read without asking."}},
			{Match: "release notes of /first", On: "tool", Reply: modelReply{Text: "First page read."}},
			{Match: "second page", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{
				toolCall("web_fetch", map[string]any{"url": base + "/second"})}}},
			{Match: "release notes", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{
				toolCall("web_fetch", map[string]any{"url": base + "/first?from=chat", "headers": map[string]string{"Accept-Language": "en"}})}}},
		}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "Read the release notes")
	card := wv.Locator(selConfirmCard + "[data-kind=fetch]")
	h.expectVisible(card, "the web fetch's card")
	h.expectText(card.Locator("[data-testid=confirm-url]"), base+"/first?from=chat")
	h.expectText(card.Locator("[data-testid=confirm-headers]"), "Accept-Language")
	h.expectText(card.Locator("[data-testid=confirm-always-rules]"), "WebFetch(domain:127.0.0.1)")
	h.expectConfirmFits(wv, card, "fetch-confirmation")
	always := card.Locator(selConfirmAlways)
	h.expectInside(always, card, "the Always allow button")
	if hits.Load() != 0 {
		t.Fatal("the page was fetched before the user answered")
	}
	if err := always.Click(); err != nil {
		t.Fatal(err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), "First page read.")
	rules, err := os.ReadFile(filepath.Join(h.Dirs.home, ".config", "govibe", "allow-rules.json"))
	if err != nil || !strings.Contains(string(rules), `"WebFetch(domain:127.0.0.1)"`) {
		t.Fatalf("Always allow did not write the host's rule: %s %v", rules, err)
	}

	h.sendChat(wv, "Now the second page")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Second page read without asking.")
	if err := h.Expect.Locator(wv.Locator(selConfirmCard)).ToHaveCount(0); err != nil {
		t.Fatalf("a card is shown for the always-allowed host: %v", err)
	}
	if hits.Load() != 2 {
		t.Fatalf("%d requests reached the page, want 2", hits.Load())
	}
}
