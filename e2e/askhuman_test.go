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

func askCall(question string, options ...string) modelReply {
	args := map[string]any{"question": question}
	if len(options) > 0 {
		args["options"] = options
	}
	return modelReply{ToolCalls: []modelToolCall{toolCall("ask_human", args)}}
}

// slowly streams text before r's tool calls, a character every 60 ms.
func slowly(text string, r modelReply) modelReply {
	r.Text, r.ChunkSize, r.ChunkDelayMS = text, 1, 60
	return r
}

// questionCard is the chat's pending ask_human card.
func questionCard(wv playwright.FrameLocator) playwright.Locator {
	return wv.Locator(selConfirmCard + "[data-kind=question]")
}

// box is l's bounding box, failing the test when it has none.
func (h *harness) box(l playwright.Locator, what string) playwright.Rect {
	h.t.Helper()
	b, err := l.BoundingBox()
	if err != nil || b == nil {
		h.t.Fatalf("%s: no bounding box: %v", what, err)
	}
	return *b
}

// expectQuestionLayout checks the question card as a person meets it: the
// shared confirmation checks (expectConfirmFits: pinned, full width, in
// view with every button, no nested scrollbar, no overflow; it keeps the
// screenshot shot), then the question's own parts by their boxes: each
// choice and the answer box in view, the card above the chat input at
// (nearly) the view's width, the answer box filling its card.
func (h *harness) expectQuestionLayout(wv playwright.FrameLocator, card playwright.Locator, options int, shot string) {
	h.t.Helper()
	h.expectConfirmFits(wv, card, shot)
	opts := card.Locator(selConfirmOption)
	if err := h.Expect.Locator(opts).ToHaveCount(options); err != nil {
		h.t.Fatalf("want %d option buttons: %v", options, err)
	}
	for i := 0; i < options; i++ {
		h.expectInView(opts.Nth(i), fmt.Sprintf("option button %d", i+1))
	}
	answer := card.Locator(selConfirmAnswer)
	h.expectInView(answer, "the answer box")
	view, cb := h.viewBox(), h.box(card, "the question card")
	input := h.box(wv.Locator(selChatInput), "the chat input")
	if cb.Y+cb.Height > input.Y+1 {
		h.shot("layout-failure")
		h.t.Fatalf("the question card (%+v) overlaps the chat input (%+v)", cb, input)
	}
	if cb.Width < 0.85*view.Width {
		h.shot("layout-failure")
		h.t.Fatalf("the question card is %.0f px wide in a %.0f px view; it should span the view", cb.Width, view.Width)
	}
	ab := h.box(answer, "the answer box")
	if ab.X < cb.X || ab.X+ab.Width > cb.X+cb.Width+1 || ab.Width < 0.6*cb.Width {
		h.t.Fatalf("the answer box (%+v) does not fill its card (%+v)", ab, cb)
	}
}

// The agent asks twice: the user picks a choice, then types an answer; each
// answer reaches the model's next request as the ask_human result, and the
// agent's show_notification becomes a VS Code notification.
func TestScenarioAskHumanOptionThenTypedAnswer(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "Shown to the user", On: "tool", Reply: modelReply{Text: "The inventory database on postgres is ready."}},
		{Match: "The user replied: inventory", On: "tool", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("show_notification",
			map[string]any{"message": "Database inventory created on postgres.", "severity": "warning"})}}},
		// Streamed slowly, so the answered dialog can be seen waiting.
		{Match: "The user replied: postgres", On: "tool", Reply: slowly("Postgres it is; one more thing.", askCall("What should the database be called?"))},
		{Match: "set up a database", On: "user", Reply: askCall("Which **database** should I use?", "sqlite", "postgres")},
	}}})
	wv := h.openGoVibe()

	h.sendChat(wv, "Please set up a database")
	card := questionCard(wv)
	h.expectVisible(card, "the question card")
	h.expectText(card.Locator(selConfirmQuestion), "Which database should I use?")
	if err := h.Expect.Locator(card.Locator(selConfirmQuestion + " strong")).ToHaveText("database"); err != nil {
		t.Fatalf("the question's Markdown is not rendered: %v", err)
	}
	h.expectQuestionLayout(wv, card, 2, "ask-human-options")
	// Send is disabled until something is typed; a choice answers at once.
	// vscode-button reflects disabled as an attribute (Playwright's
	// ToBeDisabled only knows native controls and aria-disabled).
	if err := h.Expect.Locator(card.Locator(selConfirmAllow)).ToHaveAttribute("disabled", ""); err != nil {
		t.Fatalf("Send is enabled with an empty answer: %v", err)
	}
	if err := card.Locator(selConfirmOption, playwright.LocatorLocatorOptions{HasText: "postgres"}).Click(); err != nil {
		t.Fatalf("click the postgres option: %v", err)
	}

	// The dialog stays, showing the reply, while the agent works on it.
	replied := wv.Locator(selConfirmCard + "[data-kind=question][data-state=replied]")
	h.expectText(replied.Locator(selConfirmReply), "You replied: postgres")
	h.expectInView(replied, "the answered question card")
	h.shot("ask-human-replied")

	// The follow-up question replaces the answered one in the same dialog,
	// with the earlier exchange above it; the answer is typed.
	h.expectText(card.Locator(selConfirmQuestion), "What should the database be called?")
	h.expectText(card.Locator(selConfirmThread), "postgres")
	h.expectQuestionLayout(wv, card, 0, "ask-human-follow-up")
	answer := card.Locator(selConfirmAnswer)
	if err := answer.Fill("inventory"); err != nil {
		t.Fatalf("type the answer: %v", err)
	}
	h.shot("ask-human-typed")
	if err := answer.Press("Enter"); err != nil {
		t.Fatalf("press Enter: %v", err)
	}

	h.expectText(wv.Locator(selAssistantMessage).Last(), "The inventory database on postgres is ready.")
	if err := h.Expect.Locator(questionCard(wv)).ToHaveCount(0); err != nil {
		t.Fatalf("a question card is still shown after the turn ended: %v", err)
	}
	h.expectVisible(h.notification("GoVibe: Database inventory created on postgres."), "the agent's VS Code notification")
	h.shot("ask-human-done")

	var results []string
	for _, r := range chatRequests(h.Model.recorded(t)) {
		for _, m := range r.Messages {
			if m.Role == "tool" && strings.HasPrefix(m.Content, "The user replied") {
				results = append(results, m.Content)
			}
		}
	}
	got := strings.Join(dedupe(results), " | ")
	if got != "The user replied: postgres | The user replied: inventory" {
		t.Fatalf("the model received %q", got)
	}
}

// Done and Cancel from the card: Done carries the typed answer and ends the
// topic, Cancel tells the model the user declined to answer.
func TestScenarioAskHumanDoneAndCancel(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "The user cancelled the question", On: "tool", Reply: modelReply{Text: "I will use the default port."}},
		{Match: "is done with this topic: blue", On: "tool", Reply: askCall("Which port should it listen on?")},
		{Match: "style the page", On: "user", Reply: askCall("Which colour?", "red", "blue")},
	}}})
	wv := h.openGoVibe()

	h.sendChat(wv, "Please style the page")
	card := questionCard(wv)
	h.expectText(card.Locator(selConfirmQuestion), "Which colour?")
	h.expectQuestionLayout(wv, card, 2, "ask-human-colour")
	if err := card.Locator(selConfirmAnswer).Fill("blue"); err != nil {
		t.Fatal(err)
	}
	if err := card.Locator(selConfirmDone).Click(); err != nil {
		t.Fatalf("click Done: %v", err)
	}
	h.expectText(card.Locator(selConfirmQuestion), "Which port should it listen on?")
	if err := card.Locator(selConfirmDeny).Click(); err != nil {
		t.Fatalf("click Cancel: %v", err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), "I will use the default port.")
	reqs := chatRequests(h.Model.recorded(t))
	if got := lastToolResult(reqs); got != "The user cancelled the question." {
		t.Fatalf("the model's last tool result is %q", got)
	}
	var done bool
	for _, m := range reqs[len(reqs)-1].Messages {
		done = done || m.Content == "The user replied and is done with this topic: blue"
	}
	if !done {
		t.Fatal("the Done answer never reached the model")
	}
}

// web_fetch reaches a page on 127.0.0.1 because govibe.web.allowHosts lists
// it, while the same server under the name localhost (not listed) is
// refused before any request reaches it.
func TestScenarioWebFetchAllowHosts(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var byName atomic.Int64
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Host, "localhost") {
			byName.Add(1)
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><html><head><title>Team docs</title></head><body><nav>menu</nav>
<h1>Deploying</h1><p>Run <code>make deploy</code> from the main branch.</p></body></html>`)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	port := ln.Addr().(*net.TCPAddr).Port
	allowed := fmt.Sprintf("http://127.0.0.1:%d/docs", port)
	refused := fmt.Sprintf("http://localhost:%d/docs", port)

	// The user's allow rule lets the fetch run without its card (web_fetch
	// asks otherwise); the refused address is refused before anyone is asked.
	h := newHarness(t, harnessOptions{Extension: true, Settings: map[string]any{"govibe.web.allowHosts": []string{"127.0.0.1"},
		"govibe.permissions.allow": []string{"WebFetch(domain:127.0.0.1)"}},
		ModelRules: modelRules{Rules: []modelRule{
			// One fetch per round, so each rule sees its own result.
			{Match: "untrusted_web_content", On: "tool", Reply: modelReply{Text: "The docs say: run make deploy."}},
			{Match: "add it to govibe.web.allowHosts", On: "tool", Reply: modelReply{ToolCalls: []modelToolCall{
				toolCall("web_fetch", map[string]any{"url": allowed})}}},
			{Match: "internal docs", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{
				toolCall("web_fetch", map[string]any{"url": refused})}}},
		}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "How do I deploy? Read the internal docs")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "The docs say: run make deploy.")
	cards := toolCardNamed(wv, "web_fetch")
	if err := h.Expect.Locator(cards).ToHaveCount(2); err != nil {
		t.Fatalf("want two web_fetch cards: %v", err)
	}
	h.expectVisible(wv.Locator(selToolCard+"[data-status=done]:has(.tool-name:text-is('web_fetch'))"), "the allowed fetch's card")
	h.shot("web-fetch-allow-hosts")

	var fetched, blocked string
	for _, r := range chatRequests(h.Model.recorded(t)) {
		for _, m := range r.Messages {
			switch {
			case m.Role != "tool":
			case strings.Contains(m.Content, "untrusted_web_content"):
				fetched = m.Content
			case strings.Contains(m.Content, "localhost"):
				blocked = m.Content
			}
		}
	}
	if !strings.Contains(fetched, "# Deploying") || !strings.Contains(fetched, "`make deploy`") || strings.Contains(fetched, "menu") {
		t.Fatalf("the allowed page did not reach the model as Markdown:\n%s", fetched)
	}
	if !strings.Contains(blocked, "loopback") || !strings.Contains(blocked, "govibe.web.allowHosts") {
		t.Fatalf("the refusal of the unlisted name is not what the model got: %q", blocked)
	}
	if byName.Load() != 0 {
		t.Fatalf("the server was reached %d times under the unlisted name", byName.Load())
	}
}

func dedupe(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Reloading the window while a question waits: the reload restarts the
// extension host and the sidecar; the new sidecar shows the same question
// again (the run was parked, not lost), and answering it reaches the
// model as the original call's result, with no "missing tool result".
func TestScenarioReloadMidQuestion(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "The user replied: Friday", On: "tool", Reply: modelReply{Text: "The release is on Friday."}},
		{Match: "plan the release", On: "user", Reply: askCall("Which day should the release be?", "Thursday", "Friday")},
	}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "Please plan the release")
	h.expectText(questionCard(wv).Locator(selConfirmQuestion), "Which day should the release be?")
	before := h.oneSidecar()

	h.runCommand("Developer: Reload Window")
	if err := h.Expect.Locator(h.Page.Locator(selWorkbench)).ToBeVisible(); err != nil {
		t.Fatalf("the workbench did not come back after the reload: %v", err)
	}
	wv = h.reopenedGoVibe()
	h.oneSidecar(before.pid)

	card := questionCard(wv)
	h.expectText(card.Locator(selConfirmQuestion), "Which day should the release be?")
	h.expectQuestionLayout(wv, card, 2, "question-after-reload")
	if err := card.Locator(selConfirmOption, playwright.LocatorLocatorOptions{HasText: "Friday"}).Click(); err != nil {
		t.Fatalf("click Friday after the reload: %v", err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), "The release is on Friday.")
	if err := h.Expect.Locator(wv.Locator(selUserMessage)).ToHaveCount(1); err != nil {
		t.Fatalf("the transcript changed: %v", err)
	}
	reqs := chatRequests(h.Model.recorded(t))
	last := reqs[len(reqs)-1]
	var results []string
	for _, m := range last.Messages {
		if m.Role == "tool" {
			results = append(results, m.Content)
		}
	}
	if len(results) != 1 || results[0] != "The user replied: Friday" {
		t.Fatalf("the model's last request carries tool results %q", results)
	}
}
