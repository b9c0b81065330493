package e2e

import (
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// sandboxCard is the chat's pending card offering to widen the sandbox
// (not one already answered, which stays until the sidecar closes it).
func sandboxCard(wv playwright.FrameLocator) playwright.Locator {
	return wv.Locator(selConfirmCard + "[data-class=sandbox-denied]:not(:has(" + selConfirmResolved + "))")
}

// shellToolCard is the tool card of the shell command whose summary holds text.
func shellToolCard(wv playwright.FrameLocator, text string) playwright.Locator {
	return wv.Locator(selToolCard + ":has(.tool-name:text-is('run_shell_command')):has(.tool-summary:has-text(\"" + text + "\"))")
}

// Issue 30: a command that does not set out to change the workspace (it
// runs code the analysis cannot read) runs unasked in the read-only
// sandbox. Its write is denied; the card says what was denied and offers
// "Run again with write access", which runs it again writable, and the
// file is there. A second such command the person leaves denied: its tool
// card says, in neutral words, what the sandbox refused, and nothing was
// written.
func TestScenarioSandboxDeniedWriteRunsAgain(t *testing.T) {
	first := `python3 -c "open('sandboxed.txt','w').write('hi')"`
	second := `python3 -c "open('left.txt','w').write('no')"`
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "writing left.txt", On: "tool", Reply: modelReply{Text: "Left it as it was."}},
		{Match: "it ran again (workspace-write", On: "tool", Reply: shellCall(second)},
		{Match: "write the marker", On: "user", Reply: shellCall(first)},
	}}})
	wv := h.openGoVibe()

	h.sendChat(wv, "Please write the marker file")
	card := sandboxCard(wv)
	h.expectVisible(card, "the card saying the sandbox blocked the command")
	// It ran unasked: the only card is the one after the denial.
	if err := h.Expect.Locator(wv.Locator(selConfirmCard)).ToHaveCount(1); err != nil {
		t.Fatalf("the command asked before it ran in the sandbox: %v", err)
	}
	h.expectConfirmFits(wv, card, "sandbox-denied-confirmation")
	h.expectText(card.Locator(".confirm-title"), "The sandbox blocked this command")
	// The lock sits beside the title, not on a row of its own above it.
	if lock, title := h.box(card.Locator(".confirm-head .codicon-lock"), "the lock"), h.box(card.Locator(".confirm-title"), "the title"); lock.Y < title.Y-1 {
		h.shot("layout-failure")
		t.Fatalf("the lock %+v is above the title %+v", lock, title)
	}
	h.expectText(card.Locator(selSandboxOffers), "Run again with write access (denied: writing sandboxed.txt)")
	h.expectText(card.Locator(selConfirmCommandText), first)
	allow := card.Locator(selConfirmAllow)
	if err := h.Expect.Locator(allow).ToHaveText("Run again with write access Alt+A"); err != nil {
		t.Fatalf("the accept button does not name the grant: %v", err)
	}
	h.expectText(card.Locator(selConfirmDeny), "Leave it")
	h.expectInside(allow, card, "the Run again button")
	h.expectInside(card.Locator(selConfirmDeny), card, "the Leave it button")
	if err := h.Expect.Locator(card.Locator(selConfirmAlways)).ToHaveCount(0); err != nil {
		t.Fatalf("the sandbox card offers always-allow rules: %v", err)
	}
	if _, ok := h.readWorkspace("sandboxed.txt"); ok {
		t.Fatal("sandboxed.txt exists although the read-only sandbox denied the write")
	}
	if err := allow.Click(); err != nil {
		t.Fatalf("click Run again with write access: %v", err)
	}

	// The second command is denied too; this time the person leaves it.
	if err := h.Expect.Locator(card.Locator(selSandboxOffers)).ToContainText("writing left.txt"); err != nil {
		t.Fatalf("no sandbox card for the second command: %v", err)
	}
	if got, ok := h.readWorkspace("sandboxed.txt"); !ok || got != "hi" {
		t.Fatalf("the command run again with write access did not write sandboxed.txt: %q, %v", got, ok)
	}
	ran := shellToolCard(wv, "sandboxed.txt")
	h.expectText(ran.Locator(selToolSandbox), "sandbox: workspace write · no network")
	if err := h.Expect.Locator(ran).ToHaveAttribute("data-status", "done"); err != nil {
		t.Fatalf("the command run again did not succeed: %v", err)
	}
	if err := h.Expect.Locator(ran.Locator(selAutoApproved)).ToHaveCount(0); err != nil {
		t.Fatalf("a command the person let write still claims it ran unasked: %v", err)
	}
	h.expectConfirmFits(wv, card, "sandbox-denied-second")
	if err := card.Locator(selConfirmDeny).Click(); err != nil {
		t.Fatalf("click Leave it: %v", err)
	}

	h.expectNewestInView(wv, "Left it as it was.")
	if _, ok := h.readWorkspace("left.txt"); ok {
		t.Fatal("left.txt exists although the person left the denial")
	}
	left := shellToolCard(wv, "left.txt")
	h.expectText(left.Locator(selSandboxDenial), "The sandbox denied: writing left.txt")
	h.expectText(left.Locator(selAutoApproved), "ran unasked in the read-only sandbox")
	h.expectText(left.Locator(selToolSandbox), "sandbox: read-only · no network")
	// A denial is not a bug: unlike a failure, the card starts folded,
	// and neither its icon, the line nor the output is in the error colour.
	if open, err := left.Locator("details").Evaluate("el => el.open", nil); err != nil || open != false {
		t.Fatalf("the denied command's card opened as a failure does: %v %v", open, err)
	}
	h.expectInside(left.Locator(selSandboxDenial), left, "the denial line")
	h.expectInside(left.Locator(selToolSandbox), left, "the sandbox label")
	h.expectNoOverflow(wv, "sandbox tool cards")
	h.shot("sandbox-tool-cards")
	if err := left.Locator("summary").Click(); err != nil {
		t.Fatalf("open the denied command's card: %v", err)
	}
	h.expectText(left.Locator(selToolOutput), "Read-only file system")
	for _, l := range []playwright.Locator{left.Locator("summary .codicon"), left.Locator(selSandboxDenial), left.Locator(selToolOutput)} {
		c, err := l.Evaluate(errorLookJS, nil)
		if err != nil || c == true {
			t.Fatalf("the denied command's card is dressed as an error (%v)", err)
		}
	}
	h.expectNoOverflow(wv, "the opened sandbox tool card")

	got := lastToolResult(chatRequests(h.Model.recorded(t)))
	if !strings.Contains(got, "The OS sandbox denied this command: writing left.txt") {
		t.Fatalf("the model was not told what the sandbox denied: %q", got)
	}
}

// errorLookJS reports whether an element is shown as an error: the error
// class, or text in the theme's error colour (resolved through a probe,
// since computed colours are rgb() and the variable may be hex).
const errorLookJS = `(el) => {
  const probe = document.createElement('span');
  probe.style.color = 'var(--vscode-errorForeground)';
  document.body.appendChild(probe);
  const err = getComputedStyle(probe).color;
  probe.remove();
  return el.classList.contains('tool-error') || getComputedStyle(el).color === err;
}`
