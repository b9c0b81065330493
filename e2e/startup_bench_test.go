package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The start-up benchmark (make bench, issue 33 §6): how long after the
// workbench is ready the chat input accepts text and the open session is
// shown, with a 5,000-message session open, on a cold load (the first
// page load of a fresh code-server, GoVibe opened from the activity bar as
// a user would) and on reloads (the browser reloads the page with GoVibe
// open). GOVIBE_E2E_BENCH_MESSAGES=50 gives the same figures for a short
// session: start-up must not grow with history. The goal is under 1.5 s on an
// idle machine (GOVIBE_E2E_BENCH_STARTUP_GOAL_MS overrides); the figures
// are printed with the load average, and a miss is an error only when
// GOVIBE_E2E_BENCH_STARTUP_STRICT=1 (the machine is rarely idle).
//
// "Workbench ready" is VS Code's own mark code/didStartWorkbench (or, when
// a reloaded page lacks it, when the activity bar was first seen); the
// other moments are seen by polling every frame of the page (each poll
// reads the page's clock, so the figures do not include the poll's round
// trip): input = the chat input exists and is enabled; shown = the server
// banner is gone and the session's last message is on screen. The webview's
// own marks (govibe/…) and the extension host's start-up log line say where
// the time went.
func TestBenchStartup(t *testing.T) {
	if os.Getenv("GOVIBE_E2E_BENCH") != "1" {
		t.Skip("a benchmark: set GOVIBE_E2E_BENCH=1 (make bench does)")
	}
	n := 5000
	if v, err := strconv.Atoi(os.Getenv("GOVIBE_E2E_BENCH_MESSAGES")); err == nil && v > 0 {
		n = v
	}
	var stateDir string
	h := newHarness(t, harnessOptions{
		Extension:  true,
		ModelRules: modelRules{Rules: []modelRule{{Match: "", Reply: modelReply{Text: "ok"}}}},
		// Seeded before the first page load: the cold load opens it.
		BeforeOpen: func(h *harness) {
			stateDir = workspaceStateDir(h)
			h.importLongSession(stateDir, n)
		},
	})
	var lines []string
	report := func(label string, m startupMoments) {
		l := fmt.Sprintf("startup %-28s input %5d ms (page composer: %v), shown %5d ms after the workbench (workbench %5d ms after navigation)%s  [loadavg %s]",
			label+":", m.Input, m.BootInput, m.Shown, m.Workbench, m.marks(), loadAvg())
		lines = append(lines, l)
		t.Log(l)
	}
	cold := h.measureStartup(n, true, time.Time{})
	report(fmt.Sprintf("cold, %d messages", n), cold)
	h.shot("startup-cold")
	var reloads []startupMoments
	for i := 0; i < 3; i++ {
		m := h.measureStartup(n, false, h.reloadPage())
		reloads = append(reloads, m)
		report(fmt.Sprintf("reload %d, %d messages", i+1, n), m)
	}
	h.shot("startup-reload")

	goal := int64(1500)
	if v, err := strconv.ParseInt(os.Getenv("GOVIBE_E2E_BENCH_STARTUP_GOAL_MS"), 10, 64); err == nil && v > 0 {
		goal = v
	}
	reload := medianShown(reloads)
	lines = append(lines,
		fmt.Sprintf("startup summary (%d messages): session shown cold %d ms, reload median %d ms; input usable cold %d ms, reload median %d ms; input on screen cold %d ms, reload median %d ms; goal %d ms; loadavg %s",
			n, cold.Shown, reload, cold.Input, medianInput(reloads), cold.onScreen(), medianOnScreen(reloads), goal, loadAvg()))
	for _, l := range lines {
		fmt.Println(l)
	}
	t.Log(lines[len(lines)-1])
	if os.Getenv("GOVIBE_E2E_BENCH_STARTUP_STRICT") == "1" {
		for _, v := range []int64{cold.Shown, reload} {
			if v > goal {
				t.Errorf("start-up took %d ms, goal %d ms", v, goal)
			}
		}
	}
}

// startupMoments are milliseconds: Workbench after navigation start, the
// others after the workbench mark.
type startupMoments struct {
	Workbench, Input, Shown int64
	// BootInput: the input first seen was the page's own composer, before the script mounted the view.
	BootInput bool
	// Marks are the webview's and workbench's marks after the workbench mark.
	Marks map[string]int64
}

func (m startupMoments) marks() string {
	keys := make([]string, 0, len(m.Marks))
	for k := range m.Marks {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m.Marks[keys[i]] < m.Marks[keys[j]] })
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "; %s %d", k, m.Marks[k])
	}
	return b.String()
}

// onScreen is when the chat input was first painted: the page composer's
// mark (shared/bootInput.ts), or the moment it was seen usable when that
// came first.
func (m startupMoments) onScreen() int64 {
	if v, ok := m.Marks["govibe/input"]; ok && v < m.Input {
		return v
	}
	return m.Input
}

func medianOnScreen(ms []startupMoments) int64 {
	v := make([]float64, len(ms))
	for i, m := range ms {
		v[i] = float64(m.onScreen())
	}
	return int64(median(v))
}

func medianShown(ms []startupMoments) int64 {
	v := make([]float64, len(ms))
	for i, m := range ms {
		v[i] = float64(m.Shown)
	}
	return int64(median(v))
}

func medianInput(ms []startupMoments) int64 {
	v := make([]float64, len(ms))
	for i, m := range ms {
		v[i] = float64(m.Input)
	}
	return int64(median(v))
}

// startupProbeJS runs in every frame: the workbench's start mark (epoch
// ms), and whether the chat input is usable and the session shown, with
// the frame's clock.
const startupProbeJS = `(marker) => {
  const now = Date.now();
  const q = (s) => document.querySelector(s);
  const wb = performance.getEntriesByName('code/didStartWorkbench')[0];
  const nav = performance.getEntriesByType('navigation')[0];
  const input = q('[data-testid=chat-input]');
  const usable = !!input && !input.disabled && !input.readOnly;
  // The page's own composer (shared/bootInput.ts), before the script mounted the view.
  const boot = !!input && !!input.closest('#boot');
  let shown = false, tail = '';
  if (usable && !q('[data-testid=server-banner]')) {
    const msgs = document.querySelectorAll('[data-testid=message-assistant]');
    const last = msgs[msgs.length - 1];
    shown = !!last && last.textContent.includes(marker);
    tail = last ? last.textContent.slice(-60) : '(no assistant message)';
  }
  const marks = {};
  if (input) {
    for (const e of performance.getEntriesByType('mark')) if (e.name.startsWith('govibe/')) marks[e.name] = performance.timeOrigin + e.startTime;
    // The webview document's start, and the extension's moments before it
    // (extension/src/webviewHtml.ts): where the time before the script went.
    marks['webview/document'] = performance.timeOrigin;
    try {
      for (const [k, v] of Object.entries(JSON.parse(document.body.dataset.start || '{}'))) marks['extension/' + k] = v;
    } catch {}
  }
  // Where the page composer was and where the mounted one is (webview/src/boot.ts).
  const adopted = performance.getEntriesByName('govibe/boot-adopted')[0];
  const seen = !!q('.monaco-workbench .part.activitybar');
  return { now, seen, origin: performance.timeOrigin, wb: wb ? performance.timeOrigin + wb.startTime : 0, nav: nav ? performance.timeOrigin : 0, usable, boot, shown, tail, marks, adopted: adopted ? adopted.detail : null };
}`

// measureStartup waits for the workbench, clicks GoVibe's activity-bar
// item when click (a cold load shows the Explorer), and polls every frame
// until the session's last message (of n) is shown.
func (h *harness) measureStartup(n int, click bool, since time.Time) startupMoments {
	h.t.Helper()
	// Frames of the page before a reload may still answer for a moment;
	// they were made well before it. The slack absorbs the difference
	// between Chromium's timeOrigin and this process's clock.
	sinceMS := float64(since.UnixMilli()) - 1000
	marker := fmt.Sprintf("Message %d explains", n-1)
	var wb, seen, nav, input, shown float64
	mainErr := ""     // why the main frame did not answer, if it did not
	var last []string // what the frames with a usable input answered, for a timeout
	marks := map[string]int64{}
	deadline := time.Now().Add(startupTimeout * time.Millisecond)
	clicked := !click
	// "Accepts text" is checked, not assumed: a word is typed into the input
	// the moment it is first seen usable, and must be in the mounted
	// composer once the session is shown.
	word := fmt.Sprintf("typed-%d", time.Now().UnixNano())
	chatInput := h.webview().Locator("[data-testid=chat-input]")
	typed, bootInput := false, false
	moved := "" // how the input moved when the view mounted, if it did
	// Each poll runs a script in every frame, on the same main threads the
	// start-up needs: GOVIBE_E2E_BENCH_POLL_MS paces the polls so the
	// probe does not slow what it measures (the marks are the page's own).
	pace := time.Duration(0)
	if v, err := strconv.Atoi(os.Getenv("GOVIBE_E2E_BENCH_POLL_MS")); err == nil && v > 0 {
		pace = time.Duration(v) * time.Millisecond
	}
	for shown == 0 {
		if pace > 0 && (clicked || seen > 0) {
			time.Sleep(pace)
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("start-up: the session's last message %q was not shown within %d s (main frame: %q; input usable: %v; last answers: %s)",
				marker, startupTimeout/1000, mainErr, input > 0, strings.Join(last, "; "))
		}
		last = last[:0]
		frames := append([]playwright.Frame{h.Page.MainFrame()}, h.Page.Frames()...)
		// The chat view's frame found again from the DOM as well: VS Code
		// writes the view's document into a fresh frame, and a frame object
		// seen before may stop answering while the view is on screen.
		frames = append(frames, nil)
		for i, f := range frames {
			var v any
			var err error
			if f != nil {
				v, err = f.Evaluate(startupProbeJS, marker)
			} else {
				v, err = h.webview().Locator("html").Evaluate("(el, m) => ("+startupProbeJS+")(m)", marker,
					playwright.LocatorEvaluateOptions{Timeout: playwright.Float(250)})
			}
			if err != nil {
				if i == 0 {
					mainErr = err.Error()
				}
				continue // a frame that went away or is not loaded yet
			}
			r, _ := v.(map[string]any)
			if r["usable"] == true {
				last = append(last, fmt.Sprintf("frame %d: usable, shown %v, last message %q", i, r["shown"], r["tail"]))
			}
			now, _ := toFloat(r["now"])
			if origin, _ := toFloat(r["origin"]); origin < sinceMS {
				if i == 0 {
					mainErr = fmt.Sprintf("timeOrigin %.0f before %.0f", origin, sinceMS)
				}
				continue
			}
			if w, _ := toFloat(r["wb"]); w > 0 && wb == 0 {
				wb = w
			}
			if r["seen"] == true && seen == 0 {
				seen = now
				nav, _ = toFloat(r["nav"])
			}
			if r["usable"] == true && input == 0 {
				input = now
				bootInput = r["boot"] == true
			}
			if r["shown"] == true && shown == 0 {
				shown = now
				moved = inputMoved(r["adopted"])
				if ms, ok := r["marks"].(map[string]any); ok {
					for k, x := range ms {
						f, _ := toFloat(x)
						marks[k] = int64(f)
					}
				}
			}
		}
		if input > 0 && !typed {
			typed = true
			// Fill focuses and types in one call: the workbench moves focus
			// while the view opens, and a separate focus could lose it.
			if err := chatInput.Fill(word); err != nil {
				h.t.Fatalf("start-up: typing into the chat input first seen usable: %v", err)
			}
		}
		if seen > 0 && !clicked {
			if err := h.Page.Locator(selGoVibeActivity).First().Click(); err != nil {
				h.t.Fatalf("click GoVibe activity: %v", err)
			}
			clicked = true
		}
	}
	if seen == 0 {
		h.t.Fatalf("start-up: the workbench's activity bar was never seen (main frame: %s)", mainErr)
	}
	if moved != "" {
		h.t.Errorf("start-up: the chat input moved when the view mounted: %s", moved)
	}
	// What was typed the moment the input was first usable is in the
	// mounted composer (and no page composer is left), then cleared. (The
	// draft VS Code hands back on the next reload may still hold it: the
	// view's last saved state can be older than the clear.)
	got, err := chatInput.Evaluate(`(el) => document.getElementById('boot') ? 'the page composer is still there' : el.value`, nil)
	if s, _ := got.(string); err != nil || !strings.Contains(s, word) {
		h.t.Fatalf("start-up: the mounted chat input holds %q (%v), want the word typed when it was first usable (%q; typed into the page composer: %v)", got, err, word, bootInput)
	}
	if err := chatInput.Fill(""); err != nil {
		h.t.Fatalf("start-up: clearing the chat input: %v", err)
	}
	if wb == 0 || wb > seen {
		// No mark (a reloaded page may not repeat it): when the poll first
		// saw the activity bar.
		wb = seen
	}
	for k, v := range exthostMoments(h.Dirs.userData) {
		marks[k] = v
	}
	m := startupMoments{Workbench: int64(wb - nav), Input: int64(input - wb), Shown: int64(shown - wb), BootInput: bootInput, Marks: map[string]int64{}}
	for k, v := range marks {
		m.Marks[k] = v - int64(wb)
	}
	return m
}

// inputMoved compares the page composer's box with the mounted one's
// (the detail of the mark govibe/boot-adopted): "" when they are within a
// pixel of each other, or when the page had no composer to adopt.
func inputMoved(detail any) string {
	d, ok := detail.(map[string]any)
	if !ok {
		return ""
	}
	page, _ := d["page"].(map[string]any)
	mounted, _ := d["mounted"].(map[string]any)
	for _, k := range []string{"top", "bottom", "left", "right"} {
		a, _ := toFloat(page[k])
		b, _ := toFloat(mounted[k])
		if a-b > 1 || b-a > 1 {
			return fmt.Sprintf("page composer %v, mounted %v", page, mounted)
		}
	}
	return ""
}

// reloadPage reloads the browser page, as F5 would: a new window, a new
// extension host and sidecar. It returns when the reload began.
func (h *harness) reloadPage() time.Time {
	h.t.Helper()
	start := time.Now()
	if _, err := h.Page.Reload(playwright.PageReloadOptions{WaitUntil: playwright.WaitUntilStateCommit,
		Timeout: playwright.Float(startupTimeout)}); err != nil {
		h.t.Fatalf("reload: %v", err)
	}
	return start
}

// workspaceStateDir is where the extension keeps this workspace's sessions
// (extension/src/workspaceStorage.ts): globalStorage/workspaces/<hash of
// the folder's URI>, so a session can be imported before the first load.
func workspaceStateDir(h *harness) string {
	u := url.URL{Scheme: "file", Path: h.Workspace}
	sum := sha256.Sum256([]byte("folders " + u.String()))
	return filepath.Join(h.Dirs.userData, "User", "globalStorage", "govibe.govibe", "workspaces", hex.EncodeToString(sum[:])[:32])
}

// importLongSession writes an n-message session (storebench -doc: tool
// cards up to 8.5 KB) into the store at stateDir.
func (h *harness) importLongSession(stateDir string, n int) {
	h.t.Helper()
	doc := filepath.Join(h.t.TempDir(), fmt.Sprintf("long-%d.json", n))
	run := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir = h.root
		if out, err := cmd.CombinedOutput(); err != nil {
			h.t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	run("go", "run", "./server/internal/bench/storebench", "-doc", strconv.Itoa(n), "-out", doc)
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		h.t.Fatal(err)
	}
	run(filepath.Join(h.root, "bin", "govibe"), "session", "import", doc, "--state-dir", stateDir, "--workspace", h.Workspace)
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// exthostMoments reads the newest extension host's log (VS Code's own,
// under the user-data dir) for when its code had loaded ("Extension host
// with pid N started") and when it began activating GoVibe, as epoch ms:
// with extension/exthost (the process's start) and extension/activate
// (GoVibe's activate() running) they split the wait before activation
// into VS Code's and GoVibe's parts.
func exthostMoments(userData string) map[string]int64 {
	logs, _ := filepath.Glob(filepath.Join(userData, "logs", "*", "exthost*", "remoteexthost.log"))
	var newest string
	var newestMod time.Time
	for _, p := range logs {
		if st, err := os.Stat(p); err == nil && st.ModTime().After(newestMod) {
			newest, newestMod = p, st.ModTime()
		}
	}
	out := map[string]int64{}
	b, err := os.ReadFile(newest)
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(b), "\n") {
		if len(line) < 23 {
			continue
		}
		at, err := time.ParseInLocation("2006-01-02 15:04:05.000", line[:23], time.Local)
		if err != nil {
			continue
		}
		switch {
		case strings.Contains(line, "Extension host with pid") && out["vscode/exthost-loaded"] == 0:
			out["vscode/exthost-loaded"] = at.UnixMilli()
		case strings.Contains(line, "_doActivateExtension govibe.govibe") && out["vscode/activating"] == 0:
			out["vscode/activating"] = at.UnixMilli()
		}
	}
	return out
}
