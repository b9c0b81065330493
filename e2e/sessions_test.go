package e2e

import (
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// Sessions: two chats are listed in the history dropdown, and picking one
// shows its own transcript and nothing of the other, opened at its end.
func TestScenarioSwitchBetweenSessions(t *testing.T) {
	long := "pong alpha\n\n" + strings.Repeat("A line of the long first answer, long enough to scroll.\n\n", 60) + "The end of alpha."
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "ping alpha", Reply: modelReply{Text: long, ChunkSize: 400}},
		{Match: "ping beta", Reply: modelReply{Text: "pong beta"}},
	}}})
	wv := h.openGoVibe()
	title := wv.Locator(selSessionMenu + " .session-title")

	h.sendChat(wv, "ping alpha")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "pong alpha")
	h.expectText(title, "ping alpha")

	// Send at once after New chat, before the host has made the session:
	// the message belongs to the new chat (it once went to the previous
	// one, and the view then showed an empty chat without it).
	if err := wv.Locator(selNewSession).Click(); err != nil {
		t.Fatalf("click New chat: %v", err)
	}
	h.sendChat(wv, "ping beta")
	h.expectTranscript(wv, "ping beta", "pong beta")
	h.shot("new-chat-answered")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "pong beta")
	h.expectText(title, "ping beta")

	// The second chat's request carried nothing of the first.
	reqs := chatRequests(h.Model.recorded(t))
	for _, m := range reqs[len(reqs)-1].Messages {
		if strings.Contains(m.Content, "alpha") {
			t.Fatalf("the new chat's request carried the first chat's history: %+v", reqs[len(reqs)-1].Messages)
		}
	}

	items := h.openSessionList(wv)
	if err := h.Expect.Locator(items).ToHaveCount(2); err != nil {
		t.Fatalf("the history dropdown does not list the two chats: %v", err)
	}
	h.expectText(items.Nth(0), "ping beta")
	h.expectText(items.Nth(1), "ping alpha")
	if err := h.Expect.Locator(items.Nth(0)).ToHaveClass("session-item current"); err != nil {
		t.Fatalf("the open chat is not marked current in the list: %v", err)
	}
	h.shot("history")

	h.pickSession(wv, "ping alpha")
	h.expectText(title, "ping alpha")
	// A session opened from the history opens at its end (its question is
	// then scrolled out of the virtual list: scroll up to see it).
	h.expectNewestInView(wv, "The end of alpha.")
	if _, err := wv.Locator("[data-testid=transcript]").Evaluate("el => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); }", nil); err != nil {
		t.Fatal(err)
	}
	h.expectTranscript(wv, "ping alpha", "pong alpha")

	h.pickSession(wv, "ping beta")
	h.expectText(title, "ping beta")
	h.expectTranscript(wv, "ping beta", "pong beta")
}

func (h *harness) openSessionList(wv playwright.FrameLocator) playwright.Locator {
	h.t.Helper()
	toggle := wv.Locator(selSessionMenu)
	if exp, _ := toggle.GetAttribute("aria-expanded"); exp != "true" {
		if err := toggle.Click(); err != nil {
			h.t.Fatalf("open the history dropdown: %v", err)
		}
	}
	h.expectVisible(wv.Locator(selSessionList), "the history dropdown")
	return wv.Locator(selSessionItem)
}

func (h *harness) pickSession(wv playwright.FrameLocator, name string) {
	h.t.Helper()
	items := h.openSessionList(wv)
	pick := items.Locator(".session-pick", playwright.LocatorLocatorOptions{HasText: name})
	if err := pick.Click(); err != nil {
		h.t.Fatalf("pick the chat %q: %v", name, err)
	}
	if err := h.Expect.Locator(wv.Locator(selSessionList)).ToBeHidden(); err != nil {
		h.t.Fatalf("the history dropdown stayed open after picking a chat: %v", err)
	}
}

// expectTranscript asserts the chat shows exactly one exchange: question
// and answer.
func (h *harness) expectTranscript(wv playwright.FrameLocator, question, answer string) {
	h.t.Helper()
	users, assistants := wv.Locator(selUserMessage), wv.Locator(selAssistantMessage)
	if err := h.Expect.Locator(users).ToHaveCount(1); err != nil {
		h.t.Fatalf("want one question in the transcript: %v", err)
	}
	h.expectText(users.First(), question)
	if err := h.Expect.Locator(assistants).ToHaveCount(1); err != nil {
		h.t.Fatalf("want one answer in the transcript: %v", err)
	}
	h.expectText(assistants.First(), answer)
}
