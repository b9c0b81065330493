package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// alphaJS is the alpha of an element's computed background colour (1 when
// opaque): a background laid over the side bar's colour with a gradient
// counts as that colour's alpha.
const alphaJS = `(el) => {
  const c = getComputedStyle(el).backgroundColor;
  const m = /rgba?\(([^)]+)\)/.exec(c);
  if (!m) return -1;
  const parts = m[1].split(',').map((s) => parseFloat(s));
  return parts.length === 4 ? parts[3] : 1;
}`

// The details a new user noticed (issue 33 §5), at the default sidebar
// width: the always-allow rule of an edit reads as the file's path (no
// double slash); Open diff has no border that looks like focus, and keeps
// none after a click; the Jump to latest pill is opaque; the skills picker
// closes on Escape and on a click outside; the history lists a chat by its
// whole title and leaves the empty New chat out.
func TestScenarioChatDetails(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&long, "Step %d: the tokenizer reads one more flag and its value.\n\n", i)
	}
	long.WriteString("That is how flags are split.")
	rules := fixAddRules()
	rules.Rules = append(rules.Rules, modelRule{Match: "tokenizer", On: "user", Reply: modelReply{Text: long.String()}})
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: rules})
	wv := h.openGoVibe()

	const question = "Explain how the tokenizer splits flags from their values"
	h.sendChat(wv, question)
	h.expectNewestInView(wv, "That is how flags are split.")

	// The edit's always-allow rule names the file as a path.
	card := h.proposeFix(wv)
	rulesText, err := card.Locator("[data-testid=confirm-always-rules]").TextContent()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rulesText, "//") || !strings.Contains(rulesText, "Edit(/") {
		t.Fatalf("the always-allow rule reads %q, want Edit(/…/calc.go) without a double slash", rulesText)
	}
	if err := card.Locator(selConfirmAllow).Click(); err != nil {
		t.Fatal(err)
	}
	h.waitFile("calc.go", "the accepted edit was not written", func(c string, ok bool) bool { return ok && c == calcFixed })
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Add is fixed now.")

	// Open diff: no border drawn around it at rest, no focus ring once clicked.
	openDiff := toolCardNamed(wv, "edit").Locator(selOpenDiff)
	h.expectInView(openDiff, "Open diff")
	border := func() string {
		v, err := openDiff.Evaluate(`el => { const b = el.shadowRoot && el.shadowRoot.querySelector('.base'); const s = getComputedStyle(b || el); return s.borderTopColor + ' ' + s.outlineStyle; }`, nil)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(v)
	}
	if b := border(); !strings.HasPrefix(b, "rgba(0, 0, 0, 0) none") {
		t.Fatalf("Open diff at rest draws %q, want a transparent border and no outline", b)
	}
	if err := openDiff.Click(); err != nil {
		t.Fatal(err)
	}
	h.expectVisible(h.Page.Locator(selDiffEditor).First(), "the diff Open diff opened")
	if active, err := wv.Locator("body").Evaluate(`() => document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.testid || '' : ''`, nil); err != nil || active == "open-diff" {
		t.Fatalf("Open diff keeps the focus (and its ring) after a click: %v %v", active, err)
	}
	if b := border(); !strings.HasPrefix(b, "rgba(0, 0, 0, 0) none") {
		t.Fatalf("Open diff after a click draws %q", b)
	}
	h.shot("open-diff-after-click")

	// Jump to latest, over the transcript: opaque, in view.
	if _, err := wv.Locator(selTranscript).Evaluate("el => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); }", nil); err != nil {
		t.Fatal(err)
	}
	pill := wv.Locator("[data-testid=jump-latest]")
	h.expectInView(pill, "Jump to latest")
	if a, err := pill.Evaluate(alphaJS, nil); err != nil || fmt.Sprint(a) != "1" {
		t.Fatalf("the Jump to latest pill's background alpha is %v (%v), want 1 (opaque)", a, err)
	}
	h.shot("jump-latest")

	// The skills picker closes on Escape and on a click outside it.
	skills := wv.Locator("[data-testid=skills-button]")
	picker := wv.Locator("[data-testid=skills-picker]")
	for _, how := range []string{"Escape", "a click on the transcript"} {
		if err := skills.Click(); err != nil {
			t.Fatal(err)
		}
		h.expectInView(picker, "the skills picker")
		if how == "Escape" {
			err = h.Page.Keyboard().Press("Escape")
		} else {
			err = wv.Locator(selUserMessage).First().Click()
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Expect.Locator(picker).ToHaveCount(0); err != nil {
			t.Fatalf("the skills picker stays open after %s: %v", how, err)
		}
	}

	// The history, from an empty New chat: one chat, its title whole.
	if err := wv.Locator(selNewSession).Click(); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(wv.Locator(selUserMessage)).ToHaveCount(0); err != nil {
		t.Fatal(err)
	}
	items := h.openSessionList(wv)
	if err := h.Expect.Locator(items).ToHaveCount(1); err != nil {
		t.Fatalf("the empty New chat is listed as a chat: %v", err)
	}
	name := items.First().Locator("[data-testid=session-name]")
	h.expectText(name, "tokenizer")
	h.expectInside(name, wv.Locator(selSessionList), "the chat's title")
	full, err := name.Evaluate(`el => ({ cut: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1, width: el.getBoundingClientRect().width, list: el.closest('[data-testid=session-list]').getBoundingClientRect().width })`, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := full.(map[string]any)
	w, _ := toFloat(m["width"])
	lw, _ := toFloat(m["list"])
	if m["cut"] == true || w < 0.6*lw {
		h.shot("history-title-cut")
		t.Fatalf("the chat's title is cut short or squeezed: %v", m)
	}
	h.shot("history")
}
