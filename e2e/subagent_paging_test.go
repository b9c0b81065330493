package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// sidecarStateDir is the folder of the running sidecar's store
// (sessions.db under this workspace's storage in user-data, workspaceStateDir:
// the shared code-server's user-data holds other tests' stores too), waited
// for: the sidecar opens its store in the background.
func (h *harness) sidecarStateDir() string {
	h.t.Helper()
	dir := workspaceStateDir(h)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "sessions.db")); err == nil {
			return dir
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("no sessions.db in %s", dir)
		}
		time.Sleep(200 * time.Millisecond) // polling a directory: there is no event to wait on
	}
}

// A reopened sub-agent run of 250 messages shows its newest 200 under
// "50 earlier messages hidden — show"; show loads the other 50 from the
// child session and puts them in front: the task and Step 1 appear, the
// button goes, and the run's newest steps and the final answer stay.
// The session is written by devtools/subagentfixture into the running
// sidecar's store (a live run would need 250 scripted model rounds).
func TestScenarioSubAgentRunPagesInEarlierMessages(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: modelRules{Rules: []modelRule{{Match: "", Reply: modelReply{Text: "ok"}}}}})
	wv := h.openGoVibe()
	cmd := exec.Command("go", "run", "./server/internal/devtools/subagentfixture", "-state-dir", h.sidecarStateDir(), "-messages", "250")
	cmd.Dir = h.root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("subagentfixture: %v\n%s", err, out)
	}

	// A new chat makes the host list sessions again, the written one included.
	if err := wv.Locator(selNewSession).Click(); err != nil {
		t.Fatal(err)
	}
	h.pickSession(wv, "Long investigation")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Investigation finished: Add is defined in calc.go.")

	group := wv.Locator(selSubAgentGroup)
	h.expectText(group, "investigate · 20 tool calls")
	if exp, _ := group.GetAttribute("aria-expanded"); exp != "true" {
		if err := group.Click(); err != nil {
			t.Fatalf("open the sub-agent group: %v", err)
		}
	}
	// The open group's 200 rows push its header out of the rendered
	// window; from the top it is back, open, the button under it.
	transcript := wv.Locator(selTranscript)
	toTop := func() {
		t.Helper()
		if _, err := transcript.Evaluate("el => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); }", nil); err != nil {
			t.Fatal(err)
		}
	}
	toTop()
	if err := h.Expect.Locator(group).ToHaveAttribute("aria-expanded", "true"); err != nil {
		t.Fatalf("the sub-agent group did not open: %v", err)
	}
	more := wv.Locator(selSubAgentEarlier)
	h.expectText(more, "50 earlier messages hidden — show")
	step := func(n string) playwright.Locator {
		return wv.Locator(selAssistantMessage).Filter(playwright.LocatorFilterOptions{HasText: "Step " + n + ": looked at part"})
	}
	h.expectVisible(step("50"), "Step 50, the oldest message of the first page")
	if err := h.Expect.Locator(step("49")).ToHaveCount(0); err != nil {
		t.Fatalf("a hidden message is shown before show was clicked: %v", err)
	}
	h.expectInView(more, "the earlier-messages button")
	h.shot("subagent-earlier-hidden")

	if err := more.Click(); err != nil {
		t.Fatalf("click show: %v", err)
	}
	if err := h.Expect.Locator(more).ToHaveCount(0); err != nil {
		t.Fatalf("the earlier-messages button stayed after the last page came: %v", err)
	}
	// The page went in front of the run: from the top, the task, then Step 1.
	toTop()
	task := wv.Locator(selEngineLine + "[data-origin=subagent-task]")
	h.expectText(task, "Task: Find where Add is defined.")
	h.expectVisible(step("1"), "Step 1, paged in")
	h.expectInView(step("1"), "Step 1, paged in")
	h.shot("subagent-earlier-shown")
	// The group kept its place, still open, with everything in order.
	if err := h.Expect.Locator(group).ToHaveAttribute("aria-expanded", "true"); err != nil {
		t.Fatalf("the group folded when the page came: %v", err)
	}
	texts, err := wv.Locator(selAssistantMessage + ", " + selEngineLine).AllTextContents()
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(texts, "\n")
	if i, j := strings.Index(joined, "Task: Find where"), strings.Index(joined, "Step 1: looked"); i < 0 || j < 0 || i > j {
		t.Fatalf("the task and Step 1 are not in order in the rendered rows:\n%s", joined)
	}
}
