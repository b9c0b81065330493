package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

func shellCall(command string) modelReply {
	return modelReply{ToolCalls: []modelToolCall{toolCall("run_shell_command", map[string]any{"command": command})}}
}

// shellCard is the chat's pending shell confirmation.
func shellCard(wv playwright.FrameLocator) playwright.Locator {
	return wv.Locator(selConfirmCard + "[data-kind=shell]")
}

// Scenario 9: a command that changes files needs confirmation. Deny means it
// never runs; the agent's next command, allowed, runs and its result card
// shows the output.
func TestScenarioShellCommandDenyThenAllow(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "$ touch made.txt", On: "tool", Reply: modelReply{Text: "made.txt is there now."}},
		{Match: "the user denied running the command", On: "tool", Reply: shellCall("touch made.txt && ls made.txt")},
		{Match: "create the marker", On: "user", Reply: shellCall("touch denied.txt")},
	}}})
	wv := h.openGoVibe()

	h.sendChat(wv, "Please create the marker file")
	card := shellCard(wv)
	h.expectVisible(card, "a confirmation card for the shell command")
	h.expectConfirmFits(wv, card, "shell-confirmation")
	// The working directory is one line inside the card (cut in the middle
	// when it is long), its last folder's name whole, the path on hover.
	cwd := card.Locator(selConfirmCwd)
	h.expectOneLine(cwd, "the working directory")
	if title, _ := cwd.GetAttribute("title"); filepath.Base(title) != filepath.Base(h.Workspace) {
		t.Fatalf("the working directory's tooltip is %q, not the workspace %s", title, h.Workspace)
	}
	h.expectText(cwd.Locator(".path-tail"), filepath.Base(h.Workspace))
	h.expectNotClipped(cwd.Locator(".path-tail"), "the working directory's last folder")
	if err := h.Expect.Locator(card.Locator(selConfirmCommand)).ToHaveValue("touch denied.txt"); err != nil {
		t.Fatalf("the confirmation does not show the command: %v", err)
	}
	h.expectText(card.Locator(selShellClass), "changes files")
	if _, ok := h.readWorkspace("denied.txt"); ok {
		t.Fatal("denied.txt exists before the command was confirmed")
	}
	if err := card.Locator(selConfirmDeny).Click(); err != nil {
		t.Fatalf("click Deny: %v", err)
	}

	// The agent's second command gets its own card; the first never ran.
	if err := h.Expect.Locator(card.Locator(selConfirmCommand)).ToHaveValue("touch made.txt && ls made.txt"); err != nil {
		t.Fatalf("no confirmation for the second command: %v", err)
	}
	h.expectConfirmFits(wv, card, "second-shell-confirmation")
	if _, ok := h.readWorkspace("denied.txt"); ok {
		t.Fatal("the denied command ran: denied.txt exists")
	}
	// A denial is the user's choice: a neutral card, not a red error one.
	denied := wv.Locator(selToolCard + "[data-status=declined]:has(.tool-summary:text('touch denied.txt'))")
	h.expectText(denied.Locator(selToolDeclined), "You denied this command.")
	if err := card.Locator(selConfirmAllow).Click(); err != nil {
		t.Fatalf("click Allow: %v", err)
	}

	h.expectText(wv.Locator(selAssistantMessage).Last(), "made.txt is there now.")
	if _, ok := h.readWorkspace("made.txt"); !ok {
		t.Fatal("the allowed command did not run: made.txt does not exist")
	}
	if _, ok := h.readWorkspace("denied.txt"); ok {
		t.Fatal("the denied command ran after all: denied.txt exists")
	}
	if err := h.Expect.Locator(shellCard(wv)).ToHaveCount(0); err != nil {
		t.Fatalf("a shell confirmation is still shown after the turn ended: %v", err)
	}
	ran := wv.Locator(selToolCard + "[data-status=done]:has(.tool-summary:text('touch made.txt'))")
	h.expectVisible(ran, "a result card for the allowed command")
	if err := h.Expect.Locator(ran.Locator(selAutoApproved)).ToHaveCount(0); err != nil {
		t.Fatalf("a command the user allowed claims it was auto-approved: %v", err)
	}
	// A successful card is folded; open it as a person would to read the output.
	if err := ran.Locator("summary").Click(); err != nil {
		t.Fatal(err)
	}
	out := ran.Locator(selToolOutput)
	h.expectText(out, "exit code 0")
	h.expectText(out, "made.txt")

	got := lastToolResult(chatRequests(h.Model.recorded(t)))
	if !strings.Contains(got, "$ touch made.txt && ls made.txt") || !strings.Contains(got, "exit code 0") {
		t.Fatalf("the model did not receive the allowed command's result: %q", got)
	}
}

// A dangerous command shows its analysis ("dangerous" and why) in the
// confirmation; denying it leaves the target alone.
func TestScenarioDangerousCommandShowsAnalysis(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "the user denied running the command", On: "tool", Reply: modelReply{Text: "I will not delete it."}},
		{Match: "clean up", On: "user", Reply: shellCall("rm -rf ~/x")},
	}}})
	victim := filepath.Join(h.Dirs.home, "x", "keep.txt")
	if err := os.MkdirAll(filepath.Dir(victim), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wv := h.openGoVibe()

	h.sendChat(wv, "Please clean up my home folder")
	card := shellCard(wv)
	h.expectVisible(card, "a confirmation card for the dangerous command")
	h.expectConfirmFits(wv, card, "dangerous-confirmation")
	if err := h.Expect.Locator(card).ToHaveClass(regexp.MustCompile(`\bclass-dangerous\b`)); err != nil {
		t.Fatalf("the card is not marked dangerous: %v", err)
	}
	h.expectText(card.Locator(selShellClass), "dangerous")
	reasons := card.Locator(selShellReasons + " li")
	if err := h.Expect.Locator(reasons.First()).ToBeVisible(); err != nil {
		t.Fatalf("the card gives no reasons for the classification: %v", err)
	}
	all, err := reasons.AllTextContents()
	if err != nil {
		t.Fatal(err)
	}
	if joined := strings.Join(all, "\n"); !strings.Contains(joined, "recursively deletes") || !strings.Contains(joined, "~/x") {
		t.Errorf("the reasons do not say that ~/x would be deleted recursively: %q", all)
	}
	if err := card.Locator(selConfirmDeny).Click(); err != nil {
		t.Fatal(err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), "I will not delete it.")
	if data, err := os.ReadFile(victim); err != nil || string(data) != "precious\n" {
		t.Fatalf("the denied dangerous command touched ~/x: %v %q", err, data)
	}
}

// A read-only command runs without asking, and its card says so and why.
func TestScenarioReadOnlyCommandCardSaysAutoApproved(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "$ ls", On: "tool", Reply: modelReply{Text: "Listed."}},
		{Match: "list the files", On: "user", Reply: shellCall("ls")},
	}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "Please list the files")
	h.expectNewestInView(wv, "Listed.")
	h.expectNoOverflow(wv, "read-only command card")
	h.shot("auto-approved")
	card := wv.Locator(selToolCard + ":has(.tool-summary:text('ls'))")
	h.expectText(card.Locator(selAutoApproved), "auto-approved: read-only command")
	if err := h.Expect.Locator(shellCard(wv)).ToHaveCount(0); err != nil {
		t.Fatalf("a read-only command asked for confirmation: %v", err)
	}
}
