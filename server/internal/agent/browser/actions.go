package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Step is one action of a run, as reported in the result.
type Step struct {
	Action string `json:"action"`
	Target string `json:"target,omitempty"`
	OK     bool   `json:"ok"`
	Note   string `json:"note,omitempty"`
}

// actionArgs holds every action's arguments; each tool's schema names the
// ones it takes.
type actionArgs struct {
	URL       string          `json:"url"`
	Selector  string          `json:"selector"`
	Value     string          `json:"value"`
	Values    []string        `json:"values"`
	Key       string          `json:"key"`
	Direction string          `json:"direction"`
	TimeoutMs int             `json:"timeoutMs"`
	FullPage  bool            `json:"fullPage"`
	Status    string          `json:"status"`
	Summary   string          `json:"summary"`
	Extracted json.RawMessage `json:"extracted"`
}

// recorder is the run's log: steps, screenshots and the done() report.
// Tools of one run are called one at a time, the mutex guards reads from
// the runner after a cancel.
type recorder struct {
	mu          sync.Mutex
	steps       []Step
	screenshots []string
	done        *actionArgs
}

func (r *recorder) add(s Step) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steps = append(r.steps, s)
}

// action is one browser tool.
type action struct {
	name, desc string
	schema     string
	s          *Session
	rec        *recorder
	// run performs the action; it returns the step's target and note.
	run func(ctx context.Context, a *action, args actionArgs) (target, note string, err error)
}

func (a *action) Name() string            { return a.name }
func (a *action) Description() string     { return a.desc }
func (a *action) Schema() json.RawMessage { return json.RawMessage(a.schema) }
func (a *action) ReadOnly() bool          { return false }

// Traits: every action works the page (even a screenshot is of what the
// last action did).
func (a *action) Traits() tools.Traits { return tools.DrivesBrowser | tools.ReachesNetwork }

// Run performs the action and answers with its note and the page state
// after it, so each step sees where it stands.
func (a *action) Run(ctx context.Context, env *tools.Env, raw json.RawMessage) (tools.Result, error) {
	var args actionArgs
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &args); err != nil {
			return tools.FailShown(a.name+": invalid arguments: "+err.Error(), env.Tr("%s was called with arguments that are not a JSON object.", a.name)), nil
		}
	}
	target, note, err := a.run(ctx, a, args)
	if ctx.Err() != nil {
		return tools.Result{}, ctx.Err()
	}
	step := Step{Action: a.name, Target: clip(target, 200), OK: err == nil, Note: note}
	if err != nil {
		step.Note = clip(firstLine(err.Error()), 300)
	}
	if a.name == "done" {
		a.rec.add(step)
		return tools.Result{OK: err == nil, Output: firstNonEmpty(note, errText(err))}, nil
	}
	state, n := a.s.state()
	// A navigation the policy refused failed the step, even though the
	// click itself happened.
	if err == nil && n.navRefused {
		err = errors.New("the navigation was refused by the network policy")
		step.OK, step.Note = false, err.Error()
	}
	if len(n.blocked) > 0 {
		step.Note = strings.TrimSpace(step.Note + " Refused: " + strings.Join(n.blocked, "; "))
	}
	a.rec.add(step)
	out := firstNonEmpty(note, "OK") + "\n\n" + state
	if err != nil {
		out = fmt.Sprintf("%s failed: %v\n\n%s", a.name, err, state)
	}
	return tools.Result{OK: err == nil, Output: out}, nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

const (
	actionTimeout = 10_000.0
	maxWaitMs     = 30_000
	maxTextChars  = 8000
)

func timeout(ms int) *float64 {
	if ms <= 0 {
		return playwright.Float(actionTimeout)
	}
	return playwright.Float(float64(min(ms, maxWaitMs)))
}

func needSelector(args actionArgs) error {
	if strings.TrimSpace(args.Selector) == "" {
		return errors.New("selector is required")
	}
	return nil
}

// settle gives a click or key press time to start a navigation and the
// page to finish loading; a page that keeps loading is not an error.
func settle(p playwright.Page) {
	_ = p.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateDomcontentloaded, Timeout: playwright.Float(5000)})
}

const (
	selectorProp = `"selector":{"type":"string","description":"A Playwright selector: CSS (#id, .class, input[name=q]), text=Exact text, or role=button[name=\"Send\"]. Take names from the accessibility tree."}`
	timeoutProp  = `"timeoutMs":{"type":"integer","description":"Milliseconds to wait (default 10000, at most 30000)."}`
)

func schema(props string, required ...string) string {
	req, _ := json.Marshal(required)
	if len(required) == 0 {
		req = []byte("[]")
	}
	return `{"type":"object","properties":{` + props + `},"required":` + string(req) + `,"additionalProperties":false}`
}

// newActions builds the run's tools over s.
func newActions(s *Session, rec *recorder) []tools.Tool {
	defs := []*action{
		{name: "navigate", desc: "Open a URL in the browser (http or https).", schema: schema(`"url":{"type":"string"}`, "url"),
			run: func(ctx context.Context, a *action, args actionArgs) (string, string, error) {
				if err := a.s.check(args.URL); err != nil {
					return args.URL, "", fmt.Errorf("refused by the network policy: %w", err)
				}
				resp, err := a.s.Page().Goto(args.URL, playwright.PageGotoOptions{Timeout: playwright.Float(30_000), WaitUntil: playwright.WaitUntilStateLoad})
				if err != nil {
					return args.URL, "", err
				}
				if resp != nil {
					return args.URL, fmt.Sprintf("HTTP %d", resp.Status()), nil
				}
				return args.URL, "", nil
			}},
		{name: "click", desc: "Click the element matching selector.", schema: schema(selectorProp+","+timeoutProp, "selector"),
			run: func(ctx context.Context, a *action, args actionArgs) (string, string, error) {
				if err := needSelector(args); err != nil {
					return "", "", err
				}
				p := a.s.Page()
				err := p.Locator(args.Selector).Click(playwright.LocatorClickOptions{Timeout: timeout(args.TimeoutMs)})
				settle(a.s.Page())
				return args.Selector, "", err
			}},
		{name: "fill", desc: "Replace the value of the input or textarea matching selector.", schema: schema(selectorProp+`,"value":{"type":"string"},`+timeoutProp, "selector", "value"),
			run: func(ctx context.Context, a *action, args actionArgs) (string, string, error) {
				if err := needSelector(args); err != nil {
					return "", "", err
				}
				return args.Selector, "", a.s.Page().Locator(args.Selector).Fill(args.Value, playwright.LocatorFillOptions{Timeout: timeout(args.TimeoutMs)})
			}},
		{name: "press", desc: "Press a key (Enter, Tab, ArrowDown, Control+A...), on the element matching selector if given.", schema: schema(`"key":{"type":"string"},`+selectorProp, "key"),
			run: func(ctx context.Context, a *action, args actionArgs) (string, string, error) {
				if args.Key == "" {
					return "", "", errors.New("key is required")
				}
				p := a.s.Page()
				var err error
				if args.Selector != "" {
					err = p.Locator(args.Selector).Press(args.Key, playwright.LocatorPressOptions{Timeout: timeout(0)})
				} else {
					err = p.Keyboard().Press(args.Key)
				}
				settle(a.s.Page())
				return strings.TrimSpace(args.Key + " " + args.Selector), "", err
			}},
		{name: "select", desc: "Choose options (by value or label) in the <select> matching selector.", schema: schema(selectorProp+`,"values":{"type":"array","items":{"type":"string"}}`, "selector", "values"),
			run: func(ctx context.Context, a *action, args actionArgs) (string, string, error) {
				if err := needSelector(args); err != nil {
					return "", "", err
				}
				got, err := a.s.Page().Locator(args.Selector).SelectOption(playwright.SelectOptionValues{ValuesOrLabels: &args.Values}, playwright.LocatorSelectOptionOptions{Timeout: timeout(0)})
				if err == nil && len(got) == 0 {
					err = fmt.Errorf("no option matches %q", args.Values)
				}
				return args.Selector, "selected " + strings.Join(got, ", "), err
			}},
		{name: "scroll", desc: "Scroll the element matching selector into view, or the page up or down by one screen.", schema: schema(selectorProp + `,"direction":{"type":"string","enum":["up","down"]}`),
			run: func(ctx context.Context, a *action, args actionArgs) (string, string, error) {
				p := a.s.Page()
				if args.Selector != "" {
					return args.Selector, "", p.Locator(args.Selector).ScrollIntoViewIfNeeded(playwright.LocatorScrollIntoViewIfNeededOptions{Timeout: timeout(0)})
				}
				dy := 600.0
				if args.Direction == "up" {
					dy = -dy
				}
				return firstNonEmpty(args.Direction, "down"), "", p.Mouse().Wheel(0, dy)
			}},
		{name: "waitForSelector", desc: "Wait until the element matching selector is visible.", schema: schema(selectorProp+","+timeoutProp, "selector"),
			run: func(ctx context.Context, a *action, args actionArgs) (string, string, error) {
				if err := needSelector(args); err != nil {
					return "", "", err
				}
				return args.Selector, "", a.s.Page().Locator(args.Selector).First().WaitFor(playwright.LocatorWaitForOptions{State: playwright.WaitForSelectorStateVisible, Timeout: timeout(args.TimeoutMs)})
			}},
		{name: "getText", desc: "Read the visible text of the element matching selector (default: the whole page).", schema: schema(selectorProp),
			run: func(ctx context.Context, a *action, args actionArgs) (string, string, error) {
				sel := firstNonEmpty(args.Selector, "body")
				txt, err := a.s.Page().Locator(sel).InnerText(playwright.LocatorInnerTextOptions{Timeout: timeout(0)})
				if len(txt) > maxTextChars {
					txt = txt[:maxTextChars] + fmt.Sprintf("\n… (%d more characters)", len(txt)-maxTextChars)
				}
				return sel, "Text:\n" + txt, err
			}},
		{name: "getPageInfo", desc: "Show the current URL, title, accessibility tree and console errors.", schema: schema(""),
			run: func(ctx context.Context, a *action, args actionArgs) (string, string, error) { return "", "", nil }},
		{name: "screenshot", desc: "Save a screenshot of the page (shown to the user).", schema: schema(`"fullPage":{"type":"boolean"}`),
			run: func(ctx context.Context, a *action, args actionArgs) (string, string, error) {
				dir := a.s.cfg.ScreenshotDir
				if dir == "" {
					return "", "", errors.New("screenshots are not available in this session")
				}
				if err := os.MkdirAll(dir, 0o700); err != nil {
					return "", "", err
				}
				path := filepath.Join(dir, fmt.Sprintf("browser-%s.png", time.Now().UTC().Format("20060102-150405.000")))
				if _, err := a.s.Page().Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(path), FullPage: playwright.Bool(args.FullPage)}); err != nil {
					return "", "", err
				}
				a.rec.mu.Lock()
				a.rec.screenshots = append(a.rec.screenshots, path)
				a.rec.mu.Unlock()
				return path, "saved " + path, nil
			}},
		{name: "done", desc: "Finish the task: status success or failure, a summary of what happened, and any data extracted (a JSON value).",
			schema: schema(`"status":{"type":"string","enum":["success","failure"]},"summary":{"type":"string"},"extracted":{}`, "status", "summary"),
			run: func(ctx context.Context, a *action, args actionArgs) (string, string, error) {
				if args.Status != "success" && args.Status != "failure" {
					return "", "", errors.New(`status must be "success" or "failure"; call done again`)
				}
				if strings.TrimSpace(args.Summary) == "" {
					return "", "", errors.New("summary is required; call done again")
				}
				a.rec.mu.Lock()
				a.rec.done = &args
				a.rec.mu.Unlock()
				return args.Status, "Result recorded.", nil
			}},
	}
	out := make([]tools.Tool, len(defs))
	for i, d := range defs {
		d.s, d.rec = s, rec
		out[i] = d
	}
	return out
}
