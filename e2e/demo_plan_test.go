package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The sample workspace make run creates (scripts/run.sh), which the demo
// script (scripts/demo-model.json) is written against.
var demoFiles = map[string]string{
	"go.mod":       "module sample\n\ngo 1.22\n",
	"calc.go":      "package sample\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int { return a - b }\n",
	"calc_test.go": "package sample\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf(\"Add(2, 3) = %d, want 5\", got)\n\t}\n}\n",
}

// demoScript is make run's demo script, as make run serves it.
func demoScript(t *testing.T) json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "scripts", "demo-model.json"))
	if err != nil {
		t.Fatal(err)
	}
	return json.RawMessage(data)
}

// pickMode opens the header's mode menu and picks mode m.
func (h *harness) pickMode(wv playwright.FrameLocator, m string) {
	h.t.Helper()
	picker := wv.Locator(selModePicker)
	if err := picker.Click(); err != nil {
		h.t.Fatalf("open the mode menu: %v", err)
	}
	if err := wv.Locator(selModeOption + "[data-mode=" + m + "]").Click(); err != nil {
		h.t.Fatalf("pick the %s mode: %v", m, err)
	}
	if err := h.Expect.Locator(picker).ToHaveAttribute("data-value", m); err != nil {
		h.t.Fatalf("the mode picker does not show %s: %v", m, err)
	}
}

// The demo as a new user meets Plan mode (issue 33 §4), at the default
// sidebar width: the mode menu says in one line what each mode does;
// "Edits on" is locked in Plan mode; the write Plan mode withholds is a
// neutral card with the reason, not a red error; Run plan carries the
// plan out in Agent mode with a change of two hunks, one rejected in the
// diff; and the header keeps the model's name whole, and Compact no
// longer looks like a close button.
func TestScenarioDemoPlanMode(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: demoScript(t),
		Settings: map[string]any{"govibe.model": "govibe-demo"}})
	for name, content := range demoFiles {
		if err := os.WriteFile(filepath.Join(h.Workspace, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wv := h.openGoVibe()

	// The mode menu: four modes, each with one line saying what it does,
	// all in view; Escape closes it without picking.
	picker := wv.Locator(selModePicker)
	h.expectInView(picker, "the mode picker")
	if err := picker.Click(); err != nil {
		t.Fatal(err)
	}
	options := wv.Locator(selModeOption)
	if err := h.Expect.Locator(options).ToHaveCount(4); err != nil {
		t.Fatalf("the mode menu does not list four modes: %v", err)
	}
	for i := 0; i < 4; i++ {
		o := options.Nth(i)
		h.expectInView(o, "a mode in the menu")
		desc := o.Locator(selModeDescription)
		h.expectInside(desc, o, "a mode's description")
		h.expectNotClipped(desc, "a mode's description")
		h.expectOneLine(desc, "a mode's description")
	}
	h.expectText(options.Nth(1), "plan first")
	h.shot("mode-menu")
	if err := h.Page.Keyboard().Press("Escape"); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(wv.Locator(selModeMenu)).ToHaveCount(0); err != nil {
		t.Fatalf("Escape did not close the mode menu: %v", err)
	}
	h.pickMode(wv, "plan")

	// Plan mode does not edit: the switch is off, locked, and says so.
	toggle := wv.Locator(selEditToggle)
	if err := h.Expect.Locator(toggle).ToBeDisabled(); err != nil {
		t.Fatalf("the edits switch is not locked in Plan mode: %v", err)
	}
	h.expectText(toggle, "Read-only")
	h.expectInView(toggle, "the locked edits switch")
	h.expectInside(wv.Locator(selSend), wv.Locator("footer.composer"), "Send beside the locked switch")

	h.sendChat(wv, "Fix the failing test")
	editor := wv.Locator(selPlanEditor)
	if err := h.Expect.Locator(editor.Locator(selPlanRowTitle)).ToHaveCount(1); err != nil {
		t.Fatalf("no plan proposed: %v", err)
	}
	withheld := toolCardNamed(wv, "write_file")
	if err := h.Expect.Locator(withheld).ToHaveAttribute("data-status", "withheld"); err != nil {
		t.Fatalf("the write Plan mode withheld is not a neutral card: %v", err)
	}
	// The policy's one-sentence reason (toolpolicy), in the person's words.
	h.expectText(withheld.Locator(selToolWithheld), "Plan mode does not allow write_file")
	if err := h.Expect.Locator(wv.Locator("[data-testid=error], .tool-error-line")).ToHaveCount(0); err != nil {
		t.Fatalf("an error is shown for the withheld write: %v", err)
	}
	if n, _ := wv.Locator(selAssistantMessage).Filter(playwright.LocatorFilterOptions{HasText: "is not available to this agent"}).Count(); n > 0 {
		t.Fatal("the model-facing refusal is dumped into the chat")
	}
	h.expectInView(editor.Locator(selPlanRun), "Run plan")
	h.shot("plan-proposed")

	// Run plan: Agent mode carries it out; the change has two hunks.
	if err := editor.Locator(selPlanRun).Click(); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(picker).ToHaveAttribute("data-value", "agent"); err != nil {
		t.Fatalf("Run plan did not switch to Agent mode: %v", err)
	}
	card := wv.Locator(selConfirmCard + "[data-kind=edit]")
	h.expectVisible(h.editorTab(proposalTab), "a diff tab titled "+proposalTab)
	h.expectConfirmFits(wv, card, "plan-edit-confirmation")
	reject1 := h.Page.Locator(".codelens-decoration a:has-text('Reject hunk 1')")
	h.expectVisible(reject1, "the 'Reject hunk 1' CodeLens in the diff editor")
	h.expectVisible(h.Page.Locator(".codelens-decoration a:has-text('Accept hunk 2')"), "the 'Accept hunk 2' CodeLens")
	if err := reject1.Click(); err != nil {
		t.Fatalf("click Reject hunk 1: %v", err)
	}
	h.clickEditorAction("Accept Proposal")
	want := strings.Replace(demoFiles["calc.go"], "return a - b", "return a + b", 1)
	h.waitFile("calc.go", "the accepted hunk (the fix, without the package comment) was not written", func(c string, ok bool) bool { return ok && c == want })

	// The test runs, asked about or not (the sandbox runs it unasked when
	// it can), and the plan ends with the scheduler's summary.
	final := wv.Locator(selAssistantMessage).Filter(playwright.LocatorFilterOptions{HasText: "The plan is done"})
	shell := wv.Locator(selConfirmCard + "[data-kind=shell]")
	if !waitUntil(2*actionTimeoutMS*time.Millisecond, func() bool {
		if n, _ := final.Count(); n > 0 {
			return true
		}
		if v, _ := shell.IsVisible(); v {
			_ = shell.Locator(selConfirmAllow).Click()
		}
		return false
	}) {
		h.shot("plan-not-done")
		t.Fatal("the plan never finished with the scheduler's summary")
	}

	// The header, with the context figures in view: the model's name whole,
	// Compact named in words, two rows, nothing past the edge.
	label := wv.Locator(selModelLabel)
	h.expectText(label, "govibe-demo")
	h.expectNotClipped(label, "the model's name in the header")
	h.expectInView(label, "the model's name")
	h.expectVisible(wv.Locator(selContextLabel), "the context figures")
	compact := wv.Locator(selCompact)
	h.expectInView(compact, "the Compact button")
	if err := h.Expect.Locator(compact).ToHaveAttribute("aria-label", "Compact"); err != nil {
		t.Fatalf("the Compact button is not named: %v", err)
	}
	if n, _ := compact.Locator(".codicon-fold, .codicon-close").Count(); n > 0 {
		t.Fatal("the Compact button still draws the ×-like fold icon")
	}
	h.expectNotClipped(wv.Locator("[data-testid=session-title]"), "the session title beside Compact")
	h.expectCompactHeader(wv, "header-after-plan")
}
