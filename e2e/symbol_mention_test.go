package e2e

import (
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// symbolWorkspace is a TypeScript project: VS Code's built-in TypeScript
// extension is the workspace symbol provider code-server ships.
var symbolWorkspace = map[string]string{
	"tsconfig.json": `{"compilerOptions": {"strict": true, "target": "es2020"}, "include": ["*.ts"]}` + "\n",
	"shapes.ts": "export class Circle {\n" +
		"  constructor(private radius: number) {}\n" +
		"  area(): number {\n" +
		"    return Math.PI * this.radius * this.radius; // CIRCLE-AREA-MARKER\n" +
		"  }\n" +
		"}\n\n" +
		"export function unrelated(): number {\n  return 7; // UNRELATED-MARKER\n}\n",
}

// @#Symbol in the real workbench: typing "@#Circ" in the chat input lists
// the class VS Code's workspace symbol provider reports, a pick becomes a
// symbol chip, and the model's request holds the class's declaration (the
// sidecar finds and reads it) and nothing beyond it.
func TestScenarioSymbolMention(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, WorkspaceFiles: symbolWorkspace, ModelRules: modelRules{Rules: []modelRule{
		{Match: "CIRCLE-AREA-MARKER", Reply: modelReply{Text: "Circle computes its area."}},
		{Match: "Circle", Reply: modelReply{Text: "The declaration is missing."}},
	}}})
	wv := h.openGoVibe()

	// The TypeScript server answers workspace symbols once it has a
	// project: open the file, and wait until VS Code's own "Go to Symbol
	// in Workspace" lists the class.
	h.runCommand("Go to File...")
	box := h.Page.Locator(selQuickInputBox)
	if err := box.Fill("shapes.ts"); err != nil {
		t.Fatal(err)
	}
	file := h.Page.Locator(selQuickInputRow, playwright.PageLocatorOptions{HasText: "shapes.ts"}).First()
	h.expectVisible(file, "shapes.ts in Go to File")
	if err := file.Click(); err != nil {
		t.Fatal(err)
	}
	h.expectVisible(h.editorTab("shapes.ts"), "the shapes.ts editor")
	h.runCommand("Go to Symbol in Workspace...")
	if err := box.Fill("#Circle"); err != nil {
		t.Fatal(err)
	}
	row := h.Page.Locator(selQuickInputRow, playwright.PageLocatorOptions{HasText: "Circle"}).First()
	if err := h.Expect.Locator(row).ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{Timeout: playwright.Float(startupTimeout)}); err != nil {
		t.Fatalf("the TypeScript symbol provider never listed Circle: %v", err)
	}
	if err := box.Press("Escape"); err != nil {
		t.Fatal(err)
	}

	input := wv.Locator(selChatInput)
	if err := input.Click(); err != nil {
		t.Fatal(err)
	}
	if err := input.PressSequentially("Explain @#Circ"); err != nil {
		t.Fatal(err)
	}
	list := wv.Locator(selMentionCompletion)
	item := list.Locator(selCompletionItem + "[data-insert='#Circle']")
	h.expectVisible(item, "#Circle among the symbol candidates")
	h.expectText(item, "shapes.ts")
	h.expectInView(list, "the symbol list")
	h.shot("symbol-autocomplete")
	if err := item.Click(); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(input).ToHaveValue("Explain @#Circle "); err != nil {
		t.Fatalf("the pick did not complete the mention: %v", err)
	}
	chip := wv.Locator(selMentionChip + "[data-kind=symbol]")
	h.expectText(chip, "#Circle")
	h.expectInView(chip, "the symbol chip")
	h.shot("symbol-chip")
	if err := input.Press("Enter"); err != nil {
		t.Fatal(err)
	}
	h.expectNewestInView(wv, "Circle computes its area.")
	u := lastChatRequest(t, h).lastUserText()
	if !strings.Contains(u, `<attachment mention="@#Circle" kind="symbol">`) || !strings.Contains(u, "export class Circle {") ||
		!strings.Contains(u, "CIRCLE-AREA-MARKER") || strings.Contains(u, "UNRELATED-MARKER") {
		t.Fatalf("the model's request does not hold exactly the class's declaration:\n%s", u)
	}
	h.expectText(wv.Locator(selAttachmentChip+"[data-kind=symbol]").Last(), "Circle")
}
