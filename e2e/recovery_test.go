package e2e

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// sidecars lists the GoVibe servers running under this test's code-server:
// processes carrying its mark, or in its process group, whose command line
// is `govibe serve --stdio`. The sidecar re-executes itself with only the
// allowlisted environment (package secretenv), which drops the mark, so
// its process group is what still ties it to this test.
func (h *harness) sidecars() []procInfo {
	var out []procInfo
	seen := map[int]bool{}
	for _, p := range append(markedProcesses(h.CS.Mark), groupProcesses(h.CS.PGID)...) {
		if !seen[p.pid] && strings.Contains(p.cmdline, "govibe serve --stdio") {
			seen[p.pid] = true
			out = append(out, p)
		}
	}
	return out
}

// oneSidecar waits until exactly one sidecar runs, other than any in not,
// and returns it.
func (h *harness) oneSidecar(not ...int) procInfo {
	h.t.Helper()
	var found []procInfo
	if !waitUntil(actionTimeoutMS*time.Millisecond, func() bool {
		found = found[:0]
		for _, p := range h.sidecars() {
			old := false
			for _, n := range not {
				old = old || p.pid == n
			}
			if !old {
				found = append(found, p)
			}
		}
		return len(found) == 1
	}) {
		h.t.Fatalf("want one running GoVibe sidecar (other than %v), found %v (all: %v)", not, found, h.sidecars())
	}
	return found[0]
}

// Scenario 8: the sidecar is killed; the extension restarts it, says so,
// the conversation is still shown and the next message is answered in the
// same session.
func TestScenarioSidecarKilledIsRestarted(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{
		{Match: "ping one", Reply: modelReply{Text: "pong one"}},
		{Match: "ping two", Reply: modelReply{Text: "pong two"}},
	}}})
	wv := h.openGoVibe()
	h.sendChat(wv, "ping one")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "pong one")

	old := h.oneSidecar()
	if err := syscall.Kill(old.pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill the sidecar %v: %v", old, err)
	}

	h.expectText(wv.Locator(selHostNotice), "The GoVibe server stopped unexpectedly")
	fresh := h.oneSidecar(old.pid)
	t.Logf("sidecar %d killed, %d started", old.pid, fresh.pid)

	// The history is re-rendered from the restarted server.
	h.expectText(wv.Locator(selUserMessage).First(), "ping one")
	h.expectText(wv.Locator(selAssistantMessage).First(), "pong one")

	h.sendChat(wv, "ping two")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "pong two")
	if err := h.Expect.Locator(wv.Locator(selUserMessage)).ToHaveCount(2); err != nil {
		t.Fatalf("the transcript does not hold both questions after the restart: %v", err)
	}
	reqs := chatRequests(h.Model.recorded(t))
	last := reqs[len(reqs)-1]
	var history []string
	for _, m := range last.Messages {
		history = append(history, m.Role+": "+m.Content)
	}
	joined := strings.Join(history, "\n")
	if !strings.Contains(joined, "ping one") || !strings.Contains(joined, "pong one") {
		t.Fatalf("the message after the restart did not continue the same session; the model saw:\n%s", joined)
	}
	if got := h.sidecars(); len(got) != 1 || got[0].pid != fresh.pid {
		t.Fatalf("want only the restarted sidecar %d running, found %v", fresh.pid, got)
	}
}

// Scenario 7: reloading the window while an edit waits for confirmation
// re-renders the history. The reload restarts VS Code's extension host and
// with it the sidecar; the new sidecar re-offers the parked proposal from
// the store, and accepting it resumes the run.
func TestScenarioReloadMidProposal(t *testing.T) {
	// The read comes with a line of its own: the turn's start, which the
	// reloaded view must keep showing once the edit is accepted.
	rules := fixAddRules()
	for i, r := range rules.Rules {
		if r.Match == "fix Add" {
			rules.Rules[i].Reply.Text = "First I read calc.go."
		}
	}
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: rules})
	wv := h.openGoVibe()
	h.proposeFix(wv)
	before := h.oneSidecar()

	h.runCommand("Developer: Reload Window")
	if err := h.Expect.Locator(h.Page.Locator(selWorkbench)).ToBeVisible(); err != nil {
		t.Fatalf("the workbench did not come back after the reload: %v", err)
	}
	wv = h.reopenedGoVibe()
	h.oneSidecar(before.pid)

	h.expectText(wv.Locator(selUserMessage).First(), fixAddPrompt)
	h.expectVisible(toolCardNamed(wv, "read_file"), "the read_file card after the reload")
	h.expectVisible(toolCardNamed(wv, "edit"), "the edit card after the reload")
	// The restarted sidecar shows the parked proposal again, and it is
	// still answerable: accepting it resumes the run where it stopped.
	h.expectFile("calc.go", workspaceFiles["calc.go"])
	card := wv.Locator(selConfirmCard + "[data-kind=edit]")
	h.expectText(card, "calc.go")
	h.expectConfirmFits(wv, card, "edit-confirmation-after-reload")
	// The turn is still running, waiting on the card: Stop is offered, as
	// before the reload.
	h.expectInView(wv.Locator(selStop), "Stop while the reloaded turn waits on its card")
	if err := card.Locator(selConfirmAllow).Click(); err != nil {
		t.Fatalf("click Accept after the reload: %v", err)
	}
	h.waitFile("calc.go", "accepting after the reload did not write the edit", func(c string, ok bool) bool { return ok && c == calcFixed })
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Add is fixed now.")
	if err := h.Expect.Locator(wv.Locator(selUserMessage)).ToHaveCount(1); err != nil {
		t.Fatalf("the transcript changed: %v", err)
	}
	// The resumed run keeps the whole turn on screen: its first line, the
	// read card, and the accepted edit with its Open diff.
	h.expectText(wv.Locator(selAssistantMessage).First(), "First I read calc.go.")
	h.expectVisible(toolCardNamed(wv, "read_file"), "the read_file card after accepting")
	edit := toolCardNamed(wv, "edit")
	h.expectVisible(edit.Locator(selOpenDiff), "the accepted edit's Open diff")
	if err := h.Expect.Locator(wv.Locator(selStop)).ToHaveCount(0); err != nil {
		t.Fatalf("Stop is still shown after the turn ended: %v", err)
	}
	h.shot("resumed-turn-after-reload")
}
