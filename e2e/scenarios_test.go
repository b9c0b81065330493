package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// Scenario 1: a question typed in the chat gets a Markdown reply that streams
// in and ends with a highlighted code block.
func TestScenarioChatStreamsMarkdownReply(t *testing.T) {
	reply := "Here is **Fibonacci** in Go:\n\n```go\nfunc Fib(n int) int {\n\tif n < 2 {\n\t\treturn n\n\t}\n\treturn Fib(n-1) + Fib(n-2)\n}\n```\n\nThat is all."
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{
		Rules: []modelRule{{Match: "fibonacci", Reply: modelReply{Text: reply, ChunkSize: 3, ChunkDelayMS: 25}}},
	}})
	wv := h.openGoVibe()
	h.recordAssistantGrowth(wv)

	h.sendChat(wv, "Show me fibonacci in Go")

	msg := wv.Locator(selAssistantMessage).Last()
	h.expectText(msg, "That is all.")
	h.expectVisible(msg.Locator("strong", playwright.LocatorLocatorOptions{HasText: "Fibonacci"}), "bold Markdown")
	code := msg.Locator(selCodeBlock)
	h.expectText(code, "return Fib(n-1) + Fib(n-2)")
	h.expectVisible(code.Locator("span[class^='hljs-']").First(), "syntax-highlighted tokens in the code block")

	// Streaming, not one late paint: the reply grew through several lengths.
	if lens := h.assistantGrowth(wv); len(lens) < 4 {
		t.Fatalf("reply did not stream in: the assistant message went through only these lengths %v", lens)
	}

	reqs := chatRequests(h.Model.recorded(t))
	if len(reqs) == 0 || !strings.Contains(reqs[len(reqs)-1].lastUserText(), "Show me fibonacci in Go") {
		t.Fatalf("the model never received the question; chat requests: %+v", reqs)
	}
	if out := gitStatus(t, h.Workspace); out != "" {
		t.Fatalf("answering a question changed the workspace:\n%s", out)
	}
}

// Scenario 6: Stop during a long stream ends it within a second, and the
// chat takes a new question afterwards.
func TestScenarioStopLongStream(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&long, "Line %d of a very long answer.\n\n", i)
	}
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "long essay", Reply: modelReply{Text: long.String(), ChunkSize: 4, ChunkDelayMS: 30}},
		{Match: "short question", Reply: modelReply{Text: "Short answer."}},
	}}})
	wv := h.openGoVibe()

	h.sendChat(wv, "write a long essay")
	first := wv.Locator(selAssistantMessage).Last()
	h.expectText(first, "Line 3 of")
	id, err := first.GetAttribute("data-id")
	if err != nil || id == "" {
		t.Fatalf("assistant message has no data-id (%v); cannot follow it", err)
	}
	h.recordMessageChanges(wv, id)

	stop := wv.Locator(selStop)
	h.expectVisible(stop, "stop button while streaming")
	if err := stop.Click(); err != nil {
		t.Fatalf("click stop: %v", err)
	}
	if err := h.Expect.Locator(stop).ToBeHidden(playwright.LocatorAssertionsToBeHiddenOptions{Timeout: playwright.Float(1000)}); err != nil {
		t.Fatalf("the stop button was still shown one second after Stop: %v", err)
	}
	// The sidecar must really hang up on the model, not just hide the stream.
	if !waitUntil(10*time.Second, func() bool {
		reqs := chatRequests(h.Model.recorded(t))
		return len(reqs) > 0 && reqs[len(reqs)-1].Outcome == "client_gone"
	}) {
		t.Fatalf("the model's stream was not cancelled after Stop: %+v", chatRequests(h.Model.recorded(t)))
	}

	// New input is accepted and answered.
	h.sendChat(wv, "short question")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Short answer.")

	stoppedAt, changes := h.messageChanges(wv)
	for _, c := range changes {
		if c.At > stoppedAt+1000 {
			t.Fatalf("the stopped reply still changed %.0f ms after Stop (length %d); changes: %+v", c.At-stoppedAt, c.Len, changes)
		}
	}
	if txt, _ := first.TextContent(); strings.Contains(txt, "Line 400 of") {
		t.Fatalf("the whole long reply was shown although it was stopped")
	}
}

// Scenario 10: hostile model output is shown inert: no script runs, no
// command or javascript link survives, nothing is executed by clicking.
func TestScenarioHostileOutputIsInert(t *testing.T) {
	hostile := strings.Join([]string{
		"Hostile content follows.",
		`<img src=x onerror="document.body.setAttribute('data-pwned','img');console.log('GOVIBE_PWNED img')">`,
		`<script>document.body.setAttribute('data-pwned','script');console.log('GOVIBE_PWNED script')</script>`,
		"[run me](command:workbench.action.files.newUntitledFile)",
		"[click me](javascript:document.body.setAttribute('data-pwned','js'))",
		`<a href="command:workbench.action.files.newUntitledFile">html command link</a>`,
		`<iframe src="javascript:parent.document.body.setAttribute('data-pwned','iframe')"></iframe>`,
		`<svg><script>console.log('GOVIBE_PWNED svg')</script></svg>`,
		"End of hostile content.",
	}, "\n\n")
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "hostile", Reply: modelReply{Text: hostile}},
		{Match: "barrier", Reply: modelReply{Text: "Barrier reached."}},
	}}})
	wv := h.openGoVibe()
	// The console check below means something only if webview console
	// output reaches the hook: prove it does.
	if _, err := wv.Locator("body").Evaluate(`() => console.log("GOVIBE_CONSOLE_PROBE")`, nil); err != nil {
		t.Fatal(err)
	}
	if !waitUntil(5*time.Second, func() bool { return h.Console.contains("GOVIBE_CONSOLE_PROBE") }) {
		t.Fatalf("console messages from the webview do not reach the console hook: %v", h.Console.snapshot())
	}

	h.sendChat(wv, "show me something hostile")
	msg := wv.Locator(selAssistantMessage).Last()
	h.expectText(msg, "End of hostile content.")
	for _, label := range []string{"run me", "click me", "html command link"} {
		h.expectVisible(msg.GetByText(label, playwright.LocatorGetByTextOptions{Exact: playwright.Bool(true)}), "link label "+label)
	}
	for sel, what := range map[string]string{
		"script":                         "script elements",
		"iframe":                         "iframes",
		"img[src='x']":                   "the hostile image",
		"[onerror], [onload], [onclick]": "inline event handlers",
		"a[href^='command:' i]":          "command: links",
		"a[href^='javascript:' i]":       "javascript: links",
		"a[href]:not([href^='http']):not([href^='mailto:'])": "non-web links",
	} {
		if err := h.Expect.Locator(msg.Locator(sel)).ToHaveCount(0); err != nil {
			t.Errorf("the rendered reply contains %s (%s): %v", what, sel, err)
		}
	}

	// Clicking what would have been links must do nothing.
	for _, label := range []string{"run me", "click me", "html command link"} {
		if err := msg.GetByText(label, playwright.LocatorGetByTextOptions{Exact: playwright.Bool(true)}).Click(); err != nil {
			t.Fatalf("click %q: %v", label, err)
		}
	}
	// A full round trip through the host afterwards: anything the clicks
	// could have triggered has been handled by the time this is answered.
	h.sendChat(wv, "barrier")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Barrier reached.")

	if err := h.Expect.Locator(h.Page.Locator(".editor-group-container .tab")).ToHaveCount(0); err != nil {
		t.Errorf("a command: link ran a command (an editor opened): %v", err)
	}
	if err := h.Expect.Locator(wv.Locator("body[data-pwned]")).ToHaveCount(0); err != nil {
		t.Errorf("hostile script changed the webview's DOM: %v", err)
	}
	if err := h.Expect.Locator(h.Page.Locator("body[data-pwned]")).ToHaveCount(0); err != nil {
		t.Errorf("hostile script changed the workbench's DOM: %v", err)
	}
	for _, line := range h.Console.snapshot() {
		if strings.Contains(line, "GOVIBE_PWNED") || strings.Contains(line, " dialog ") {
			t.Errorf("hostile script ran: %s", line)
		}
	}
}

// Scenario 11: "GoVibe: Set API Key" keeps the key in SecretStorage, never
// in settings, and the extension uses it.
func TestScenarioSetAPIKeyUsesSecretStorage(t *testing.T) {
	const secret = "sk-e2e-5ecret-d0-not-persist-in-settings"
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "ping one", Reply: modelReply{Text: "pong one"}},
		{Match: "ping two", Reply: modelReply{Text: "pong two"}},
	}}})
	wv := h.openGoVibe()
	settingsBefore, err := os.ReadFile(h.settingsPath())
	if err != nil {
		t.Fatal(err)
	}

	// Without a key the request carries no credentials: the Authorization
	// header seen later can only come from the key set below.
	h.sendChat(wv, "ping one")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "pong one")
	if reqs := chatRequests(h.Model.recorded(t)); len(reqs) != 1 || reqs[0].HasAuth {
		t.Fatalf("want one request without Authorization before a key is set, got %+v", reqs)
	}

	h.runCommand("GoVibe: Set API Key")
	h.expectVisible(h.Page.Locator(selQuickInput+" input[type=password]"), "a password input for the key")
	h.quickInputAnswer(secret)

	h.sendChat(wv, "ping two")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "pong two")
	if reqs := chatRequests(h.Model.recorded(t)); !reqs[len(reqs)-1].HasAuth {
		t.Fatalf("the request after Set API Key carried no Authorization header: %+v", reqs)
	}

	settingsAfter, err := os.ReadFile(h.settingsPath())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(settingsAfter), secret) {
		t.Fatalf("the API key was written to settings.json:\n%s", settingsAfter)
	}
	// VS Code may reformat or migrate settings.json itself; what matters is
	// that GoVibe's own settings are untouched and no key setting appeared.
	before, after := govibeSettings(t, settingsBefore), govibeSettings(t, settingsAfter)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("Set API Key changed GoVibe's settings:\nbefore: %v\nafter:  %v", before, after)
	}
	for _, dir := range []string{filepath.Join(h.Dirs.userData, "User"), h.Workspace} {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil && strings.Contains(string(data), secret) {
				t.Errorf("the API key is in plain text in %s", p)
			}
			return nil
		})
	}
}

// sendChat types text into the chat input and presses Send.
func (h *harness) sendChat(wv playwright.FrameLocator, text string) {
	h.t.Helper()
	input := wv.Locator(selChatInput)
	if err := input.Fill(text); err != nil {
		h.t.Fatalf("type into chat: %v", err)
	}
	send := wv.Locator(selSend)
	if err := h.Expect.Locator(send).ToBeEnabled(); err != nil {
		h.t.Fatalf("send button not enabled after typing: %v", err)
	}
	if err := send.Click(); err != nil {
		// Say what the view held: an emptied input means the webview was
		// replaced (or reset) between typing and sending.
		v, _ := input.InputValue()
		h.t.Fatalf("click send (the input now holds %q): %v", v, err)
	}
	if err := h.Expect.Locator(input).ToHaveValue(""); err != nil {
		h.t.Fatalf("chat input was not cleared after sending: %v", err)
	}
}

func (h *harness) expectVisible(l playwright.Locator, what string) {
	h.t.Helper()
	if err := h.Expect.Locator(l).ToBeVisible(); err != nil {
		h.t.Fatalf("expected %s: %v", what, err)
	}
}

func (h *harness) expectText(l playwright.Locator, text string) {
	h.t.Helper()
	if err := h.Expect.Locator(l).ToContainText(text); err != nil {
		h.t.Fatalf("expected text %q: %v", text, err)
	}
}

// recordAssistantGrowth makes the webview remember every length the last
// assistant message goes through, from now on.
func (h *harness) recordAssistantGrowth(wv playwright.FrameLocator) {
	h.t.Helper()
	_, err := wv.Locator("body").Evaluate(`(body, sel) => {
		window.__e2eLens = [];
		new MutationObserver(() => {
			const all = body.querySelectorAll(sel);
			if (!all.length) return;
			const n = all[all.length - 1].textContent.length;
			const a = window.__e2eLens;
			if (!a.length || a[a.length - 1] !== n) a.push(n);
		}).observe(body, { subtree: true, childList: true, characterData: true });
	}`, selAssistantMessage)
	if err != nil {
		h.t.Fatalf("install growth recorder: %v", err)
	}
}

func (h *harness) assistantGrowth(wv playwright.FrameLocator) []int {
	h.t.Helper()
	v, err := wv.Locator("body").Evaluate(`() => window.__e2eLens`, nil)
	if err != nil {
		h.t.Fatalf("read growth recorder: %v", err)
	}
	var lens []int
	if arr, ok := v.([]any); ok {
		for _, x := range arr {
			if n, ok := x.(int); ok {
				lens = append(lens, n)
			} else if f, ok := x.(float64); ok {
				lens = append(lens, int(f))
			}
		}
	}
	return lens
}

type textChange struct {
	At  float64 // performance.now() in the webview, ms
	Len int
}

// recordMessageChanges timestamps every change to the message with data-id
// id, and the moment the stop button is pressed (captured in the page, so
// Playwright's own latency does not count against the product).
func (h *harness) recordMessageChanges(wv playwright.FrameLocator, id string) {
	h.t.Helper()
	_, err := wv.Locator("body").Evaluate(`(body, a) => {
		window.__e2eChanges = [];
		window.__e2eStopAt = null;
		document.addEventListener('click', (e) => {
			if (window.__e2eStopAt === null && e.target.closest(a.stop)) window.__e2eStopAt = performance.now();
		}, true);
		let last = -1;
		new MutationObserver(() => {
			const el = body.querySelector('[data-id="' + a.id + '"]');
			const n = el ? el.textContent.length : -1;
			if (n !== last) { last = n; window.__e2eChanges.push({ at: performance.now(), len: n }); }
		}).observe(body, { subtree: true, childList: true, characterData: true });
	}`, map[string]any{"id": id, "stop": selStop})
	if err != nil {
		h.t.Fatalf("install change recorder: %v", err)
	}
}

func (h *harness) messageChanges(wv playwright.FrameLocator) (stoppedAt float64, changes []textChange) {
	h.t.Helper()
	v, err := wv.Locator("body").Evaluate(`() => ({ stop: window.__e2eStopAt, changes: window.__e2eChanges })`, nil)
	if err != nil {
		h.t.Fatalf("read change recorder: %v", err)
	}
	m, _ := v.(map[string]any)
	stop, ok := toFloat(m["stop"])
	if !ok {
		h.t.Fatalf("the stop click was not seen by the webview: %v", v)
	}
	arr, _ := m["changes"].([]any)
	for _, x := range arr {
		c, _ := x.(map[string]any)
		at, _ := toFloat(c["at"])
		n, _ := toFloat(c["len"])
		changes = append(changes, textChange{At: at, Len: int(n)})
	}
	return stop, changes
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

func gitStatus(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("git", "status", "--porcelain")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git status: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// govibeSettings returns the govibe.* entries of a settings.json.
func govibeSettings(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var all map[string]any
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatalf("settings.json is not valid JSON: %v\n%s", err, data)
	}
	out := map[string]any{}
	for k, v := range all {
		if strings.HasPrefix(k, "govibe.") {
			out[k] = v
		}
	}
	return out
}
