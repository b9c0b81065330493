package e2e

import (
	"strings"
	"testing"
)

// @terminal in the real workbench: a command run in the integrated
// terminal (bash, with VS Code's shell integration) reaches the model's
// request as the mention's attachment, with the token it printed scrubbed;
// a command too fast for the output stream is read from the terminal's
// buffer instead.
func TestScenarioTerminalMention(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, Clipboard: true,
		// The DOM renderer puts the terminal's text in the page, so the
		// test can wait for the command's output to be shown.
		Settings: map[string]any{"terminal.integrated.gpuAcceleration": "off", "terminal.integrated.defaultProfile.linux": "bash"},
		ModelRules: modelRules{Rules: []modelRule{
			{Match: "FAST-OUT", Reply: modelReply{Text: "I see the fast output."}},
			{Match: "TERM-MARKER-42", Reply: modelReply{Text: "I see the terminal output."}},
			{Match: "terminal", Reply: modelReply{Text: "The terminal output is missing."}},
		}}})
	wv := h.openGoVibe()
	h.runCommand("Terminal: Create New Terminal")
	term := h.Page.Locator(".terminal-wrapper.active .xterm")
	h.expectVisible(term, "the integrated terminal")
	rows := h.Page.Locator(".terminal-wrapper.active .xterm-rows")
	// The prompt (it names the workspace folder) says the shell is ready.
	if err := h.Expect.Locator(rows).ToContainText("calc"); err != nil {
		t.Fatalf("the shell's prompt never showed: %v", err)
	}
	if err := term.Click(); err != nil {
		t.Fatal(err)
	}
	if err := h.Page.Keyboard().Type("sleep 0.5; printf 'TERM-%s-%d\\n' MARKER 42; echo API_TOKEN=abcd1234secretvalue1; sleep 0.5"); err != nil {
		t.Fatal(err)
	}
	if err := h.Page.Keyboard().Press("Enter"); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(rows).ToContainText("TERM-MARKER-42"); err != nil {
		t.Fatalf("the command's output never showed: %v", err)
	}
	if err := h.Expect.Locator(rows).ToContainText("API_TOKEN=abcd1234secretvalue1"); err != nil {
		t.Fatalf("the second line never showed: %v", err)
	}
	h.sendChat(wv, "What failed? @terminal")
	h.expectNewestInView(wv, "I see the terminal output.")
	u := lastChatRequest(t, h).lastUserText()
	if !strings.Contains(u, `<attachment mention="@terminal" kind="terminal">`) || strings.Contains(u, "abcd1234secretvalue1") {
		t.Fatalf("the terminal attachment in the model's request:\n%s", u)
	}
	chip := wv.Locator(selAttachmentChip + "[data-kind=terminal]")
	h.expectInView(chip, "the terminal attachment chip")
	h.shot("terminal-mention")

	// A command too fast for VS Code's output stream: the terminal's own
	// buffer (select all, copy) supplies it.
	if err := term.Click(); err != nil {
		t.Fatal(err)
	}
	if err := h.Page.Keyboard().Type("printf 'FAST-%s\\n' OUT"); err != nil {
		t.Fatal(err)
	}
	if err := h.Page.Keyboard().Press("Enter"); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(rows).ToContainText("FAST-OUT"); err != nil {
		t.Fatalf("the fast command's output never showed: %v", err)
	}
	h.sendChat(wv, "And now? @terminal")
	h.expectNewestInView(wv, "I see the fast output.")
	if u := lastChatRequest(t, h).lastUserText(); strings.Contains(u, "abcd1234secretvalue1") {
		t.Fatalf("the terminal buffer's secret reached the model:\n%s", u)
	}
}
