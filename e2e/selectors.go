// Package e2e runs the real GoVibe product end to end: the packaged .vsix
// installed into a real code-server, driven in real Chromium through
// playwright-go, talking to a scripted OpenAI-compatible model on loopback.
//
// The package holds only tests plus this file: the selectors are the one
// contract the suite shares with the webview and the workbench, kept together
// so a change to either touches a single place.
package e2e

// Workbench (code-server / VS Code) selectors.
const (
	selWorkbench        = ".monaco-workbench"
	selGoVibeActivity   = "a[aria-label^='GoVibe']"
	selExplorerActivity = "a[aria-label^='Explorer']"
	selQuickInput       = ".quick-input-widget"
	selQuickInputBox    = ".quick-input-widget input"
	selQuickInputRow    = ".quick-input-widget .monaco-list-row"
	selExplorerRow      = ".explorer-folders-view .monaco-list-row"
	selSideBarTitle     = ".part.sidebar .composite.title"

	// Webviews nest twice: the workbench's host iframe, then the frame the
	// extension's HTML is loaded into.
	selWebviewHost  = "iframe.webview.ready"
	selWebviewInner = "#active-frame"
)

// GoVibe webview DOM contract.
const (
	selChatInput        = "[data-testid=chat-input]"
	selSend             = "[data-testid=send]"
	selStop             = "[data-testid=stop]"
	selAssistantMessage = "[data-testid=message-assistant]"
	selCodeBlock        = "pre code"
	selToolCard         = "[data-testid=tool-card]"
	selConfirmCard      = "[data-testid=confirm-card]"
	selConfirmAllow     = "[data-testid=confirm-allow]"
	selConfirmDeny      = "[data-testid=confirm-deny]"
)

// Workbench editors, dialogs and notifications.
const (
	selEditorTab = ".tabs-container .tab"
	// selScreenshot is a browser screenshot shown inline in a tool card.
	selScreenshot = "[data-testid=screenshot]"
	// selMCPImage is an image an MCP tool returned, inline in its card.
	selMCPImage      = "[data-testid=mcp-image]"
	selActiveGroup   = ".editor-group-container.active"
	selEditorActions = ".editor-actions"
	selDiffEditor    = ".monaco-diff-editor"
	selViewLines     = ".view-lines"
	selDialog        = ".monaco-dialog-box"
	selDialogButton  = ".dialog-buttons .monaco-button"
	selNotification  = ".notifications-toasts .notification-toast"
)

// GoVibe webview: edit confirmation, tool cards.
const (
	selConfirmReason   = "[data-testid=confirm-reason]"
	selConfirmResolved = "[data-testid=confirm-resolved]"
	selConfirmOpenDiff = "[data-testid=confirm-open-diff]"
	selOpenDiff        = "[data-testid=open-diff]"
	selToolOutput      = "[data-testid=tool-output]"
	selToolDeclined    = "[data-testid=tool-declined]"
	selAutoApproved    = "[data-testid=auto-approved]"
)

// GoVibe webview: ask_human's question card.
const (
	selConfirmQuestion = "[data-testid=confirm-question]"
	selConfirmOption   = "[data-testid=confirm-option]"
	selConfirmAnswer   = "[data-testid=confirm-answer]"
	selConfirmDone     = "[data-testid=confirm-done]"
	selConfirmReply    = "[data-testid=confirm-reply]"
	selConfirmThread   = "[data-testid=confirm-thread]"
)

// GoVibe webview: shell confirmation.
const (
	selConfirmCommand = "[data-testid=confirm-command]"
	selConfirmCwd     = "[data-testid=confirm-cwd]"
	selShellClass     = "[data-testid=shell-class]"
	selShellReasons   = ".shell-reasons"
)

// GoVibe webview: the OS sandbox (the card offering to widen it after a
// denial; how a command ran and what was denied, on its tool card).
const (
	selSandboxOffers      = "[data-testid=sandbox-offers]"
	selConfirmCommandText = "[data-testid=confirm-command-text]"
	selToolSandbox        = "[data-testid=tool-sandbox]"
	selSandboxDenial      = "[data-testid=sandbox-denial]"
)

// Workbench views (panes in a view container) and their trees.
const (
	selPane       = ".pane"
	selPaneHeader = ".pane-header"
	selListRow    = ".monaco-list-row"
)

// GoVibe webview: transcript and banners.
const (
	selUserMessage  = "[data-testid=message-user]"
	selRollback     = "[data-testid=rollback]"
	selChatNotice   = "[data-testid=notice]"
	selHostNotice   = "[data-testid=host-notice]"
	selServerBanner = "[data-testid=server-banner]"
)

// GoVibe webview: sessions.
const (
	selSessionMenu = "[data-testid=session-menu]"
	selSessionList = "[data-testid=session-list]"
	selSessionItem = "[data-testid=session-item]"
	selModelPicker = "[data-testid=model-picker]"
	// selContextLabel is the header's context meter label, "used / window".
	selContextLabel = "[data-testid=context-label]"
	selNewSession   = "[data-testid=new-session]"
)

// GoVibe webview: the transcript and sub-agent groups.
const (
	selTranscript = "[data-testid=transcript]"
	// selSubAgentGroup is a sub-agent run's fold header ("investigate · 3 tool calls").
	selSubAgentGroup = "[data-testid=subagent-group]"
	// selSubAgentEarlier is "N earlier messages hidden — show" atop a long run.
	selSubAgentEarlier = "[data-testid=subagent-earlier]"
	// selEngineLine is a muted line for a message the engine wrote (a sub-agent's task).
	selEngineLine = "[data-testid=engine-line]"
)

// GoVibe webview: todo panel.
const (
	selTodoPanel = "[data-testid=todo-panel]"
	selTodoGoal  = "[data-testid=todo-goal]"
	selTodoItem  = "[data-testid=todo-item]"
)

// GoVibe webview: "Always allow", the MCP status view, notices.
const (
	selConfirmAlways = "[data-testid=confirm-always]"
	selToolTitle     = "[data-testid=confirm-tool-title]"
	selToolArgs      = "[data-testid=confirm-tool-args]"
	selMCPOpen       = "[data-testid=mcp-open]"
	selMCPPanel      = "[data-testid=mcp-panel]"
	selMCPServer     = "[data-testid=mcp-server]"
	selMCPCounts     = "[data-testid=mcp-counts]"
	selMCPSkipped    = "[data-testid=mcp-skipped]"
	selNoticeAction  = "[data-testid=notice-action]"
)

// GoVibe webview: working modes (header picker, Reconcile panel).
const (
	selModePicker       = "[data-testid=mode-picker]"
	selModeMenu         = "[data-testid=mode-menu]"
	selModeOption       = "[data-testid=mode-option]"
	selModeDescription  = "[data-testid=mode-description]"
	selEditToggle       = "[data-testid=edit-toggle]"
	selToolWithheld     = "[data-testid=tool-withheld]"
	selModelLabel       = "[data-testid=model-label]"
	selCompact          = "[data-testid=compact]"
	selReconcilePanel   = "[data-testid=reconcile-panel]"
	selReconcilePhase   = "[data-testid=reconcile-phase]"
	selReconcileLoop    = "[data-testid=reconcile-loop]"
	selReconcileApprove = "[data-testid=reconcile-approve]"
	selManifestEdit     = "[data-testid=manifest-edit]"
	selDiffChart        = "[data-testid=diff-chart]"
	selDiffBar          = "[data-testid=diff-bar]"
	selPhasesPanel      = "[data-testid=phases-panel]"
	selPhaseChip        = "[data-testid=phase-chip]"
	selPhasePlan        = "[data-testid=phase-plan]"
	selPlanEditor       = "[data-testid=plan-editor]"
	selPlanRowTitle     = "[data-testid=plan-row-title]"
	selPlanRun          = "[data-testid=plan-run]"
)
