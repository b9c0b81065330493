package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

var mcpBuild struct {
	once sync.Once
	bin  string
	err  error
}

// mcpEchoBinary builds server/internal/devtools/mcpecho once per package
// run: a real stdio MCP server (tools echo, add, fail).
func mcpEchoBinary(t *testing.T) string {
	t.Helper()
	mcpBuild.once.Do(func() {
		root, err := repoRoot()
		if err != nil {
			mcpBuild.err = err
			return
		}
		dir, err := os.MkdirTemp("", "govibe-e2e-mcp")
		if err != nil {
			mcpBuild.err = err
			return
		}
		mcpBuild.bin = filepath.Join(dir, "mcpecho")
		cmd := exec.Command("go", "build", "-o", mcpBuild.bin, "./server/internal/devtools/mcpecho")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			mcpBuild.err = fmt.Errorf("go build ./server/internal/devtools/mcpecho: %v\n%s", err, out)
		}
	})
	if mcpBuild.err != nil {
		t.Fatal(mcpBuild.err)
	}
	return mcpBuild.bin
}

// mcpConfig is a .govibe/mcp.json starting mcpecho as server "echo".
func mcpConfig(t *testing.T) string {
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"echo": map[string]any{"command": mcpEchoBinary(t)}}})
	return string(b)
}

// expectInside fails unless inner's bounding box lies inside outer's.
func (h *harness) expectInside(inner, outer playwright.Locator, what string) {
	h.t.Helper()
	ib, err1 := inner.BoundingBox()
	ob, err2 := outer.BoundingBox()
	if err1 != nil || err2 != nil || ib == nil || ob == nil {
		h.t.Fatalf("%s: no bounding boxes: %v %v", what, err1, err2)
	}
	const slack = 1
	if ib.X < ob.X-slack || ib.Y < ob.Y-slack || ib.X+ib.Width > ob.X+ob.Width+slack || ib.Y+ib.Height > ob.Y+ob.Height+slack {
		h.shot("layout-failure")
		h.t.Fatalf("%s: %+v is not inside %+v", what, *ib, *ob)
	}
}

// An MCP tool call from a real stdio MCP server is confirmed through its
// card: the card names the server and the tool and shows the arguments;
// "Always allow" runs it and writes the user's rule; the model gets the
// server's answer. A tool that returns an image (a 640 px wide PNG) has
// it shown inline in its card, loaded and scaled to fit the sidebar, a
// click opens it full size, and the model is told it was shown to the
// user. The MCP status view then shows the server connected with its
// tool count.
func TestScenarioMCPToolConfirmedThroughCard(t *testing.T) {
	call := modelReply{ToolCalls: []modelToolCall{toolCall("mcp__echo__echo", map[string]any{"text": "hello from the card"})}}
	h := newHarness(t, harnessOptions{Extension: true,
		WorkspaceFiles: map[string]string{".govibe/mcp.json": mcpConfig(t)},
		ModelRules: modelRules{Rules: []modelRule{
			{Match: "echo: hello from the card", On: "tool", Reply: modelReply{Text: "The MCP server echoed it back."}},
			{Match: "It is shown to the user in the chat", On: "tool", Reply: modelReply{Text: "The picture is in the chat."}},
			{Match: "echo something", On: "user", Reply: call},
			{Match: "draw a picture", On: "user", Reply: modelReply{ToolCalls: []modelToolCall{toolCall("mcp__echo__picture", map[string]any{})}}},
		}}})
	wv := h.openGoVibe()

	h.sendChat(wv, "Please echo something through MCP")
	card := wv.Locator(selConfirmCard + "[data-kind=tool]")
	h.expectVisible(card, "a confirmation card for the MCP tool call")
	h.expectText(card.Locator(selToolTitle), "echo")
	h.expectText(card.Locator(selToolArgs), "hello from the card")
	always := card.Locator(selConfirmAlways)
	h.expectText(card.Locator("[data-testid=confirm-always-rules]"), "mcp__echo__echo")
	// Pinned, full width, in view, every button in view, nothing clipped.
	h.expectConfirmFits(wv, card, "mcp-tool-confirmation")
	h.expectInside(always, card, "the Always allow button")
	h.expectInside(card.Locator(selConfirmAllow), card, "the Allow button")
	if err := always.Click(); err != nil {
		t.Fatalf("click Always allow: %v", err)
	}

	h.expectText(wv.Locator(selAssistantMessage).Last(), "The MCP server echoed it back.")
	got := lastToolResult(chatRequests(h.Model.recorded(t)))
	if !strings.Contains(got, "echo: hello from the card") {
		t.Fatalf("the model did not get the MCP server's answer: %q", got)
	}
	rules, err := os.ReadFile(filepath.Join(h.Dirs.home, ".config", "govibe", "allow-rules.json"))
	if err != nil || !strings.Contains(string(rules), `"mcp__echo__echo"`) {
		t.Fatalf("Always allow did not write the user's rule: %s %v", rules, err)
	}
	if _, err := os.Stat(filepath.Join(h.Workspace, ".govibe", "allow-rules.json")); err == nil {
		t.Fatal("an allow rule was written into the workspace")
	}

	// An image result, shown inline in the tool's card.
	h.sendChat(wv, "Please draw a picture through MCP")
	card = wv.Locator(selConfirmCard + "[data-kind=tool]")
	h.expectVisible(card, "a confirmation card for the picture tool")
	h.expectText(card.Locator(selToolTitle), "picture")
	if err := card.Locator(selConfirmAllow).Click(); err != nil {
		t.Fatalf("click Allow: %v", err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), "The picture is in the chat.")
	pcard := wv.Locator(selToolCard + "[data-status=done]:has(.tool-name:text-is('mcp__echo__picture'))")
	h.expectInlineImage(pcard, selMCPImage, "/mcp-images/", "the MCP tool's image")
	h.expectInside(pcard.Locator(selMCPImage+" img"), pcard, "the MCP tool's image")
	h.expectNoOverflow(wv, "MCP image card")
	h.shot("mcp-image-inline")
	if got := lastToolResult(chatRequests(h.Model.recorded(t))); !strings.Contains(got, "a picture of stripes") ||
		!strings.Contains(got, "[The tool returned an image (image/png, ") || !strings.Contains(got, "It is shown to the user in the chat; its content is not available to the model.]") {
		t.Fatalf("the model's note about the image: %q", got)
	}

	// The status view: the server, connected, with its three tools.
	if err := wv.Locator(selMCPOpen).Click(); err != nil {
		t.Fatalf("open the MCP view: %v", err)
	}
	panel := wv.Locator(selMCPPanel)
	row := panel.Locator(selMCPServer + "[data-name=echo]")
	if err := h.Expect.Locator(row).ToHaveAttribute("data-state", "connected"); err != nil {
		t.Fatalf("the echo server is not shown connected: %v", err)
	}
	h.expectText(row.Locator(selMCPCounts), "4 tools")
	h.expectInView(panel, "the MCP status view")
	h.expectInside(row, panel, "the server row")
	h.expectNoOverflow(wv, "MCP status view")
	h.shot("mcp-status-view")

	// Last (the image editor is a webview too, which the harness's chat
	// locator would then also match): a click on the inline image opens
	// it full size in an editor tab.
	if err := pcard.Locator(selMCPImage).Click(); err != nil {
		t.Fatalf("click the image: %v", err)
	}
	h.expectVisible(h.editorTab(".png"), "the image's editor tab")
}

// An untrusted workspace runs nothing from its project config: the chat
// says what was skipped (MCP servers, hooks) and offers VS Code's
// workspace trust; the MCP view names the skipped file.
func TestScenarioUntrustedWorkspaceNotice(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, WorkspaceTrust: true,
		Settings: map[string]any{"security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never"},
		WorkspaceFiles: map[string]string{
			".govibe/mcp.json":   mcpConfig(t),
			".govibe/hooks.json": `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch hooked.txt"}]}]}}`,
		},
		ModelRules: modelRules{Rules: []modelRule{{Match: "hello", On: "user", Reply: modelReply{Text: "Hi."}}}}})
	wv := h.openGoVibe()

	notice := wv.Locator(selHostNotice + ":has(" + selNoticeAction + ")")
	h.expectVisible(notice, "the untrusted-workspace notice")
	h.expectText(notice, "MCP servers (.govibe/mcp.json)")
	h.expectText(notice, "hooks (.govibe/hooks.json)")
	action := notice.Locator(selNoticeAction)
	h.expectText(action, "Trust workspace")
	h.expectInView(notice, "the untrusted-workspace notice")
	h.expectInside(action, notice, "the Trust workspace button")
	h.expectNoOverflow(wv, "untrusted-workspace notice")

	if err := wv.Locator(selMCPOpen).Click(); err != nil {
		t.Fatalf("open the MCP view: %v", err)
	}
	h.expectText(wv.Locator(selMCPSkipped), ".govibe/mcp.json")
	if err := h.Expect.Locator(wv.Locator(selMCPServer)).ToHaveCount(0); err != nil {
		t.Fatalf("an untrusted project's MCP server is listed: %v", err)
	}
	h.shot("untrusted-workspace")

	// A turn runs no project hook.
	h.sendChat(wv, "hello")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "Hi.")
	if _, ok := h.readWorkspace("hooked.txt"); ok {
		t.Fatal("an untrusted project's SessionStart hook ran")
	}

	// The button asks VS Code for workspace trust: its trust editor opens.
	if err := action.Click(); err != nil {
		t.Fatalf("click Trust workspace: %v", err)
	}
	trustEditor := h.Page.GetByText("You are in Restricted Mode")
	h.expectVisible(trustEditor, "VS Code's Workspace Trust editor")
	h.shot("workspace-trust-editor")

	// Granting trust reloads the project config without a restart: the
	// MCP server starts and the view shows it connected.
	if err := h.Page.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Trust", Exact: playwright.Bool(true)}).First().Click(); err != nil {
		t.Fatalf("click Trust: %v", err)
	}
	trusted := h.Page.GetByText("You trust this folder")
	h.expectVisible(trusted, "the trust editor saying the folder is trusted")
	// The trust editor floats over the workbench: close it to reach the chat.
	if err := h.Page.Locator(".modal-editor-part .modal-editor-action-container .codicon-close").Last().Click(); err != nil {
		t.Fatalf("close the trust editor: %v", err)
	}
	if err := h.Expect.Locator(trusted).ToBeHidden(); err != nil {
		t.Fatalf("the trust editor did not close: %v", err)
	}
	// Trust granted in VS Code's own editor withdraws the chat's notice
	// and the MCP view's skipped line, and the view shows the server
	// connected without a refresh.
	if err := h.Expect.Locator(wv.Locator(selHostNotice + ":has(" + selNoticeAction + ")")).ToHaveCount(0); err != nil {
		t.Fatalf("the untrusted-workspace notice is still shown after trust: %v", err)
	}
	if err := h.Expect.Locator(wv.Locator(selMCPSkipped)).ToHaveCount(0); err != nil {
		t.Fatalf("the MCP view still names skipped files after trust: %v", err)
	}
	row := wv.Locator(selMCPServer + "[data-name=echo]")
	if err := h.Expect.Locator(row).ToHaveAttribute("data-state", "connected"); err != nil {
		t.Fatalf("after trust the echo server is not connected: %v", err)
	}
	h.shot("trusted-mcp-connected")
}

// A .vscode/mcp.json server whose environment names a prompted input
// waits for it; "Enter inputs" in the MCP view asks for it in a password
// box, the value goes to SecretStorage and to the sidecar, and the server
// (which refuses to start without it) connects. The value is in no log.
func TestScenarioMCPInputPromptedAndStored(t *testing.T) {
	const secret = "e2e-input-secret-7c1"
	cfg, _ := json.Marshal(map[string]any{
		"inputs": []any{map[string]any{"type": "promptString", "id": "echo-token", "description": "Token of the echo server", "password": true}},
		"servers": map[string]any{"echo": map[string]any{"command": mcpEchoBinary(t),
			"env": map[string]any{"MCPECHO_TOKEN": "${input:echo-token}", "MCPECHO_REQUIRE_TOKEN": secret}}},
	})
	h := newHarness(t, harnessOptions{Extension: true, WorkspaceFiles: map[string]string{".vscode/mcp.json": string(cfg)},
		ModelRules: modelRules{Rules: []modelRule{{Match: "hello", On: "user", Reply: modelReply{Text: "Hi."}}}}})
	wv := h.openGoVibe()
	if err := wv.Locator(selMCPOpen).Click(); err != nil {
		t.Fatalf("open the MCP view: %v", err)
	}
	enter := wv.Locator("[data-testid=mcp-inputs]")
	h.expectText(enter, "echo-token")
	h.expectInView(enter, "the Enter inputs button")
	h.shot("mcp-needs-input")
	if err := enter.Click(); err != nil {
		t.Fatal(err)
	}
	if err := h.Expect.Locator(h.Page.Locator(selQuickInputBox)).ToHaveAttribute("type", "password"); err != nil {
		t.Fatalf("the input is not asked for in a password box: %v", err)
	}
	h.quickInputAnswer(secret)
	row := wv.Locator(selMCPServer + "[data-name=echo]")
	if err := h.Expect.Locator(row).ToHaveAttribute("data-state", "connected"); err != nil {
		t.Fatalf("the server did not start with the input: %v", err)
	}
	h.expectText(row.Locator(selMCPCounts), "4 tools")
	h.shot("mcp-input-connected")
	var leaked []string
	_ = filepath.WalkDir(h.Dirs.userData, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".log") {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), secret) {
				leaked = append(leaked, p)
			}
		}
		return nil
	})
	if len(leaked) > 0 {
		t.Fatalf("the input's value is in logs: %v", leaked)
	}
}

// mcpStarts reads the pids a started mcpecho wrote (MCPECHO_STARTS).
func mcpStarts(path string) []string {
	b, _ := os.ReadFile(path)
	return strings.Fields(string(b))
}

// awaitStarts waits until n mcpecho processes have started: a process
// start shows nowhere in the page while the server stays connected, so
// the file the processes write is what is waited on (bounded).
func awaitStarts(t *testing.T, path string, n int, what string) []string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		got := mcpStarts(path)
		if len(got) >= n || time.Now().After(deadline) {
			if len(got) != n {
				t.Fatalf("%s: %d MCP server starts (%v), want %d", what, len(got), got, n)
			}
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// offersTool says whether a chat request offered the tool.
func offersTool(r recordedRequest, name string) bool {
	for _, x := range r.Tools {
		if x.Name == name {
			return true
		}
	}
	return false
}

// The MCP status view's actions on a real stdio server: Disable stops it
// and its tools leave the next request; Enable starts it again (a new
// process) and Restart replaces the process; after both, the model is
// offered the tools again and a call through the card reaches the new
// process.
func TestScenarioMCPRestartAndEnableFromView(t *testing.T) {
	starts := filepath.Join(t.TempDir(), "starts")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"echo": map[string]any{
		"command": mcpEchoBinary(t), "env": map[string]any{"MCPECHO_STARTS": starts}}}})
	call := modelReply{ToolCalls: []modelToolCall{toolCall("mcp__echo__echo", map[string]any{"text": "back again"})}}
	h := newHarness(t, harnessOptions{Extension: true,
		WorkspaceFiles: map[string]string{".govibe/mcp.json": string(cfg)},
		ModelRules: modelRules{Rules: []modelRule{
			{Match: "echo: back again", On: "tool", Reply: modelReply{Text: "The echo server answered."}},
			{Match: "while disabled", On: "user", Reply: modelReply{Text: "No MCP tools now."}},
			{Match: "echo it back", On: "user", Reply: call},
		}}})
	wv := h.openGoVibe()
	if err := wv.Locator(selMCPOpen).Click(); err != nil {
		t.Fatalf("open the MCP view: %v", err)
	}
	row := wv.Locator(selMCPServer + "[data-name=echo]")
	state := func(want, what string) {
		t.Helper()
		if err := h.Expect.Locator(row).ToHaveAttribute("data-state", want); err != nil {
			h.shot("mcp-" + want + "-failure")
			t.Fatalf("%s: the echo server is not %s: %v", what, want, err)
		}
	}
	state("connected", "opening the view")
	h.expectText(row.Locator(selMCPCounts), "4 tools")
	if got := mcpStarts(starts); len(got) != 1 {
		t.Fatalf("after opening the view: %d starts (%v)", len(got), got)
	}
	toggle := row.Locator("[data-testid=mcp-toggle-enabled]")

	// Disable: stopped, and the next turn is not offered its tools.
	h.expectText(toggle, "Disable")
	if err := toggle.Click(); err != nil {
		t.Fatal(err)
	}
	state("disabled", "after Disable")
	h.expectText(toggle, "Enable")
	if err := h.Expect.Locator(row.Locator("[data-testid=mcp-restart]")).ToBeDisabled(); err != nil {
		t.Fatalf("Restart is offered on a disabled server: %v", err)
	}
	h.shot("mcp-disabled")
	h.sendChat(wv, "Anything while disabled?")
	h.expectText(wv.Locator(selAssistantMessage).Last(), "No MCP tools now.")
	reqs := chatRequests(h.Model.recorded(t))
	if offersTool(reqs[len(reqs)-1], "mcp__echo__echo") {
		t.Fatal("a disabled server's tool was offered to the model")
	}

	// Enable: a new process, connected, with its tools.
	if err := toggle.Click(); err != nil {
		t.Fatal(err)
	}
	state("connected", "after Enable")
	h.expectText(row.Locator(selMCPCounts), "4 tools")
	awaitStarts(t, starts, 2, "after Enable")

	// Restart: the process is replaced.
	if err := row.Locator("[data-testid=mcp-restart]").Click(); err != nil {
		t.Fatal(err)
	}
	pids := awaitStarts(t, starts, 3, "after Restart")
	if pids[2] == pids[1] {
		t.Fatalf("after Restart: starts %v, want a third process", pids)
	}
	state("connected", "after Restart")
	h.shot("mcp-restarted")

	// The tools are back: offered, and a call reaches the server.
	h.sendChat(wv, "Please echo it back through MCP")
	card := wv.Locator(selConfirmCard + "[data-kind=tool]")
	h.expectVisible(card, "the MCP call's card")
	if err := card.Locator(selConfirmAllow).Click(); err != nil {
		t.Fatal(err)
	}
	h.expectText(wv.Locator(selAssistantMessage).Last(), "The echo server answered.")
	reqs = chatRequests(h.Model.recorded(t))
	if !offersTool(reqs[len(reqs)-1], "mcp__echo__echo") {
		t.Fatal("the re-enabled server's tool is not offered")
	}
	if got := lastToolResult(reqs); !strings.Contains(got, "echo: back again") {
		t.Fatalf("the model did not get the restarted server's answer: %q", got)
	}
	if got := mcpStarts(starts); len(got) != 3 {
		t.Fatalf("the call started another process: %v", got)
	}
}
