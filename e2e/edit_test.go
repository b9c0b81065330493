package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// The edit scenarios all ask the agent to fix Add in calc.go: it reads the
// file, then proposes replacing line 5 ("return a - b").
const (
	fixAddPrompt = "Please fix Add in calc.go"
	calcFixed    = "package calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	proposalTab  = "calc.go ↔ GoVibe's proposal"
)

func toolCall(name string, args map[string]any) modelToolCall {
	data, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return modelToolCall{Name: name, Arguments: string(data)}
}

// fixAddRules script the read-then-edit exchange and the model's answer to
// each outcome of the proposal. Rules match the latest input, first match
// wins, so the outcome rules come before the one matching the read result.
func fixAddRules() modelRules {
	return modelRules{Rules: []modelRule{
		{Match: "Edited calc.go", On: "tool", Reply: modelReply{Text: "Add is fixed now."}},
		{Match: "rejected the edit of calc.go", On: "tool", Reply: modelReply{Text: "Understood, calc.go stays as it is."}},
		{Match: "func Add", On: "tool", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("edit", map[string]any{
			"filePath": "calc.go", "startLine": 5, "endLine": 5, "newContent": "\treturn a + b"})}}},
		{Match: "fix Add", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("read_file", map[string]any{
			"filePath": "calc.go"})}}},
	}}
}

// toolCardNamed is the chat's tool card for the tool called name.
func toolCardNamed(wv playwright.FrameLocator, name string) playwright.Locator {
	return wv.Locator(selToolCard + ":has(.tool-name:text-is('" + name + "'))")
}

// proposeFix sends the fix request and waits until the proposal is shown
// both in VS Code's diff editor and as a card in the chat.
func (h *harness) proposeFix(wv playwright.FrameLocator) playwright.Locator {
	h.t.Helper()
	h.sendChat(wv, fixAddPrompt)
	h.expectVisible(h.editorTab(proposalTab), "a diff tab titled "+proposalTab)
	h.expectEditorText(h.diffSide("original"), "return a - b", "the diff's original side")
	h.expectEditorText(h.diffSide("modified"), "return a + b", "the diff's proposal side")
	card := wv.Locator(selConfirmCard + "[data-kind=edit]")
	h.expectText(card, "calc.go")
	h.expectConfirmFits(wv, card, "edit-confirmation")
	// "Always allow" names the one file it would allow, inside the card.
	h.expectText(card.Locator("[data-testid=confirm-always-rules]"), "calc.go)")
	h.expectInside(card.Locator(selConfirmAlways), card, "the edit card's Always allow button")
	// Nothing is written while the proposal waits.
	h.expectFile("calc.go", workspaceFiles["calc.go"])
	return card
}

// lastToolResult is the content of the newest tool message the model got.
func lastToolResult(reqs []recordedRequest) string {
	for i := len(reqs) - 1; i >= 0; i-- {
		msgs := reqs[i].Messages
		for j := len(msgs) - 1; j >= 0; j-- {
			if msgs[j].Role == "tool" {
				return msgs[j].Content
			}
		}
	}
	return ""
}

// Scenario 2: the agent proposes an edit, the diff editor shows it, Accept in
// the editor's title bar writes it, and the chat shows it applied.
func TestScenarioAcceptProposedEdit(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: fixAddRules()})
	wv := h.openGoVibe()
	card := h.proposeFix(wv)

	h.clickEditorAction("Accept Proposal")

	h.waitFile("calc.go", "the accepted edit was not written", func(c string, ok bool) bool { return ok && c == calcFixed })
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Add is fixed now.")
	if err := h.Expect.Locator(card).ToHaveCount(0); err != nil {
		t.Fatalf("the confirmation card stayed after the edit was accepted: %v", err)
	}
	edit := toolCardNamed(wv, "edit")
	if err := h.Expect.Locator(edit).ToHaveAttribute("data-status", "done"); err != nil {
		t.Fatalf("the edit's tool card does not show it done: %v", err)
	}
	h.expectVisible(edit.Locator(selOpenDiff), "Open diff on the applied edit's card")
	if err := h.Expect.Locator(h.editorTab(proposalTab)).ToHaveCount(0); err != nil {
		t.Fatalf("the proposal's diff tab stayed open after Accept: %v", err)
	}
	if got := lastToolResult(chatRequests(h.Model.recorded(t))); !strings.Contains(got, "Edited calc.go") {
		t.Fatalf("the model was not told the edit was applied; last tool result: %q", got)
	}
	if out := gitStatus(t, h.Workspace); out != "M calc.go" {
		t.Fatalf("git status after the accepted edit: %q, want only calc.go modified", out)
	}

	// "Open diff" on the applied card shows before and after at any time later.
	if err := edit.Locator(selOpenDiff).Click(); err != nil {
		t.Fatal(err)
	}
	h.expectVisible(h.editorTab("calc.go (GoVibe edit)"), "the applied edit's diff tab")
	h.expectEditorText(h.diffSide("original"), "return a - b", "the applied diff's before side")
	h.expectEditorText(h.diffSide("modified"), "return a + b", "the applied diff's after side")
}

// Scenario 3: Reject in the editor's title bar asks for a reason; the file
// stays as it was and the model receives the reason.
func TestScenarioRejectProposedEditWithReason(t *testing.T) {
	const reason = "keep subtraction, the caller relies on it"
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: fixAddRules()})
	wv := h.openGoVibe()
	card := h.proposeFix(wv)

	h.clickEditorAction("Reject Proposal")
	h.quickInputAnswer(reason)

	h.expectText(wv.Locator(selAssistantMessage).Last(), "Understood, calc.go stays as it is.")
	if err := h.Expect.Locator(card).ToHaveCount(0); err != nil {
		t.Fatalf("the confirmation card stayed after the edit was rejected: %v", err)
	}
	edit := toolCardNamed(wv, "edit")
	// A rejection is the user's choice, not a failure: a neutral card.
	if err := h.Expect.Locator(edit).ToHaveAttribute("data-status", "declined"); err != nil {
		t.Fatalf("the rejected edit's tool card does not show it was declined: %v", err)
	}
	// The declined card says why on its summary line ("You rejected this
	// change: <reason>").
	h.expectText(edit, reason)
	if err := h.Expect.Locator(edit.Locator(selOpenDiff)).ToHaveCount(0); err != nil {
		t.Fatalf("a rejected edit offers Open diff as if it had been applied: %v", err)
	}
	if err := h.Expect.Locator(h.editorTab(proposalTab)).ToHaveCount(0); err != nil {
		t.Fatalf("the proposal's diff tab stayed open after Reject: %v", err)
	}

	h.expectFile("calc.go", workspaceFiles["calc.go"])
	if out := gitStatus(t, h.Workspace); out != "" {
		t.Fatalf("the rejected edit changed the workspace:\n%s", out)
	}
	got := lastToolResult(chatRequests(h.Model.recorded(t)))
	if !strings.Contains(got, "rejected the edit of calc.go") || !strings.Contains(got, reason) {
		t.Fatalf("the model was not told the edit was rejected with the reason %q; last tool result: %q", reason, got)
	}
}

// Scenario 4: the user types into the proposal side of the diff before
// accepting from the chat card; their version is written and the model gets
// their changes as a diff.
func TestScenarioUserAmendsProposalBeforeAccepting(t *testing.T) {
	const comment = " // amended by a person"
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: fixAddRules()})
	wv := h.openGoVibe()
	card := h.proposeFix(wv)

	modified := h.diffSide("modified")
	line := modified.Locator(".view-line", playwright.LocatorLocatorOptions{HasText: "a + b"}).First()
	if err := line.Click(); err != nil {
		t.Fatalf("click into the proposal: %v", err)
	}
	if err := h.Page.Keyboard().Press("End"); err != nil {
		t.Fatal(err)
	}
	if err := h.Page.Keyboard().Type(comment); err != nil {
		t.Fatal(err)
	}
	h.expectEditorText(modified, "return a + b"+comment, "the proposal after typing into it")
	h.expectFile("calc.go", workspaceFiles["calc.go"])

	if err := card.Locator(selConfirmAllow).Click(); err != nil {
		t.Fatalf("click Accept on the chat card: %v", err)
	}

	want := strings.Replace(calcFixed, "return a + b", "return a + b"+comment, 1)
	h.waitFile("calc.go", "the user's version was not written", func(c string, ok bool) bool { return ok && c == want })
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Add is fixed now.")
	if err := h.Expect.Locator(toolCardNamed(wv, "edit")).ToHaveAttribute("data-status", "done"); err != nil {
		t.Fatalf("the edit's tool card does not show it done: %v", err)
	}
	if err := h.Expect.Locator(h.editorTab(proposalTab)).ToHaveCount(0); err != nil {
		t.Fatalf("the proposal's diff tab stayed open after Accept: %v", err)
	}
	got := lastToolResult(chatRequests(h.Model.recorded(t)))
	if !strings.Contains(got, "the user modified your edit:") ||
		!strings.Contains(got, "-\treturn a + b\n") || !strings.Contains(got, "+\treturn a + b"+comment) {
		t.Fatalf("the model did not receive the user's diff; last tool result: %q", got)
	}
}
