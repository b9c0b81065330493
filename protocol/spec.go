package protocol

// Direction of a method.
type Direction int

const (
	ClientToServer Direction = iota + 1
	ServerToClient
)

// Method describes one JSON-RPC method or notification. The generator turns
// this table into Go dispatch glue and TypeScript types, so adding a method
// here is the only step needed to extend the contract.
type Method struct {
	Name   string
	GoName string // exported Go identifier for the interface method
	Dir    Direction
	Notify bool // notification (no reply)
	Params any  // zero value of the params type (pointer), nil for none
	Result any  // zero value of the result type (pointer), nil for none
	// Ordered methods change state: they are handled one at a time in
	// arrival order, together with every notification. Unordered requests
	// (pure reads) run concurrently.
	Ordered bool
	Doc     string
}

// Methods is the contract.
var Methods = []Method{
	{Name: "initialize", GoName: "Initialize", Dir: ClientToServer, Params: &InitializeParams{}, Result: &InitializeResult{}, Ordered: true, Doc: "Opens the connection; refused on a protocol-version mismatch."},
	{Name: "shutdown", GoName: "Shutdown", Dir: ClientToServer, Result: &Empty{}, Ordered: true, Doc: "Cancels running turns and flushes state; exit follows."},
	{Name: "exit", GoName: "Exit", Dir: ClientToServer, Notify: true, Doc: "Ends the process."},
	{Name: "settings/didChange", GoName: "SettingsDidChange", Dir: ClientToServer, Notify: true, Params: &SettingsDidChangeParams{}, Doc: "A live settings change."},
	{Name: "workspace/didChangeTrust", GoName: "WorkspaceDidChangeTrust", Dir: ClientToServer, Notify: true, Params: &WorkspaceTrustParams{}, Doc: "Workspace trust changed; trust-gated project config reloads."},
	{Name: "mcp/status", GoName: "MCPStatus", Dir: ClientToServer, Params: &MCPStatusParams{}, Result: &MCPStatusResult{}, Doc: "Each MCP server's state, tool count, schema tokens and stderr tail."},
	{Name: "mcp/restart", GoName: "MCPRestart", Dir: ClientToServer, Params: &MCPServerParams{}, Result: &MCPStatusResult{}, Ordered: true, Doc: "Restarts one MCP server; answers the new status."},
	{Name: "mcp/setEnabled", GoName: "MCPSetEnabled", Dir: ClientToServer, Params: &MCPSetEnabledParams{}, Result: &MCPStatusResult{}, Ordered: true, Doc: "Enables or disables one MCP server; answers the new status."},
	{Name: "mcp/setInputs", GoName: "MCPSetInputs", Dir: ClientToServer, Params: &MCPSetInputsParams{}, Result: &MCPStatusResult{}, Ordered: true, Doc: "Values for .vscode/mcp.json inputs (from SecretStorage); servers waiting for them restart. Answers the new status."},
	{Name: "files/complete", GoName: "FilesComplete", Dir: ClientToServer, Params: &FilesCompleteParams{}, Result: &FilesCompleteResult{}, Doc: "Fuzzy workspace paths for @-mention autocomplete (.gitignore honoured)."},
	{Name: "skills/list", GoName: "SkillsList", Dir: ClientToServer, Params: &SkillsListParams{}, Result: &SkillsListResult{}, Ordered: true, Doc: "The skill catalog with the session's active skills, for the chat's skills picker. Ordered, so it reflects a trust change sent before it."},
	{Name: "skills/setActive", GoName: "SkillsSetActive", Dir: ClientToServer, Params: &SkillsSetActiveParams{}, Result: &SkillsListResult{}, Ordered: true, Doc: "Activates or deactivates a skill for the session (or the workspace); answers the new list."},
	{Name: "commands/list", GoName: "CommandsList", Dir: ClientToServer, Params: &CommandsListParams{}, Result: &CommandsListResult{}, Ordered: true, Doc: "The chat's slash commands with descriptions and argument hints, for autocomplete. Ordered, so it reflects a workspace/didChangeTrust sent before it."},

	{Name: "chat/send", GoName: "ChatSend", Dir: ClientToServer, Params: &ChatSendParams{}, Result: &ChatSendResult{}, Ordered: true, Doc: "Starts a turn; events follow as chat/event."},
	{Name: "chat/cancel", GoName: "ChatCancel", Dir: ClientToServer, Params: &ChatCancelParams{}, Result: &Empty{}, Ordered: true, Doc: "Stops the running turn of a session."},
	{Name: "chat/setEditEnabled", GoName: "ChatSetEditEnabled", Dir: ClientToServer, Params: &ChatSetEditEnabledParams{}, Result: &Empty{}, Ordered: true, Doc: "The edit-permission toggle."},
	{Name: "chat/setMode", GoName: "ChatSetMode", Dir: ClientToServer, Params: &ChatSetModeParams{}, Result: &Empty{}, Ordered: true, Doc: "The session's working mode (agent, plan, phases, reconcile); applies from the next turn."},
	{Name: "chat/runPlan", GoName: "ChatRunPlan", Dir: ClientToServer, Params: &ChatRunPlanParams{}, Result: &ChatSendResult{}, Ordered: true, Doc: "Hands the plan that Plan mode proposed (with the user's edits, if any) to the scheduler in Agent mode."},
	{Name: "mode/get", GoName: "ModeGet", Dir: ClientToServer, Params: &ModeGetParams{}, Result: &ModeState{}, Doc: "The session's mode and its record (Phases progress, the reconcile run) for the mode panel."},
	{Name: "reconcile/approve", GoName: "ReconcileApprove", Dir: ClientToServer, Params: &ReconcileApproveParams{}, Result: &ChatSendResult{}, Ordered: true, Doc: "Approves the drafted Vibe Manifest (optionally edited) and starts the reconcile loop as a turn; chat/cancel stops it."},
	{Name: "reconcile/resume", GoName: "ReconcileResume", Dir: ClientToServer, Params: &ReconcileParams{}, Result: &ChatSendResult{}, Ordered: true, Doc: "Runs a stopped or interrupted reconcile run on from its saved step."},
	{Name: "chat/compact", GoName: "ChatCompact", Dir: ClientToServer, Params: &CompactParams{}, Result: &Empty{}, Ordered: true, Doc: "Compacts the session's model context now."},
	{Name: "confirm/resolve", GoName: "ConfirmResolve", Dir: ClientToServer, Params: &ConfirmResolveParams{}, Result: &Empty{}, Ordered: true, Doc: "Answers a confirm/requested."},
	{Name: "permissions/list", GoName: "PermissionsList", Dir: ClientToServer, Result: &PermissionsListResult{}, Doc: "The user's always-allow rules."},
	{Name: "permissions/revoke", GoName: "PermissionsRevoke", Dir: ClientToServer, Params: &PermissionsRevokeParams{}, Result: &PermissionsListResult{}, Ordered: true, Doc: "Removes an always-allow rule; answers the remaining ones."},
	{Name: "models/presets", GoName: "ModelsPresets", Dir: ClientToServer, Result: &ModelsPresetsResult{}, Doc: "The provider presets GoVibe ships."},
	{Name: "models/list", GoName: "ModelsList", Dir: ClientToServer, Params: &ModelsEndpointParams{}, Result: &ModelsListResult{}, Doc: "Lists an endpoint's models (GET /models); errors carry advice."},
	{Name: "models/probe", GoName: "ModelsProbe", Dir: ClientToServer, Params: &ModelsProbeParams{}, Result: &ModelsProbeResult{}, Doc: "One one-token request: streaming, tools, usage, reasoning."},
	{Name: "todo/control", GoName: "TodoControl", Dir: ClientToServer, Params: &TodoControlParams{}, Result: &Empty{}, Ordered: true, Doc: "Stop, skip, retry or resume todo items."},

	{Name: "session/list", GoName: "SessionList", Dir: ClientToServer, Params: &SessionListParams{}, Result: &SessionListResult{}, Doc: "Sessions, newest first."},
	{Name: "session/load", GoName: "SessionLoad", Dir: ClientToServer, Params: &SessionLoadParams{}, Result: &SessionLoadResult{}, Doc: "A page of a session's UI track plus live state."},
	{Name: "session/create", GoName: "SessionCreate", Dir: ClientToServer, Params: &SessionCreateParams{}, Result: &SessionInfo{}, Ordered: true},
	{Name: "session/rename", GoName: "SessionRename", Dir: ClientToServer, Params: &SessionRenameParams{}, Result: &Empty{}, Ordered: true},
	{Name: "session/setModel", GoName: "SessionSetModel", Dir: ClientToServer, Params: &SessionSetModelParams{}, Result: &Empty{}, Ordered: true, Doc: "The session's model from its next request (the header's picker; /model does the same)."},
	{Name: "session/delete", GoName: "SessionDelete", Dir: ClientToServer, Params: &SessionDeleteParams{}, Result: &Empty{}, Ordered: true},
	{Name: "session/search", GoName: "SessionSearch", Dir: ClientToServer, Params: &SessionSearchParams{}, Result: &SessionSearchResult{}},
	{Name: "session/export", GoName: "SessionExport", Dir: ClientToServer, Params: &SessionExportParams{}, Result: &SessionExportResult{}},
	{Name: "session/import", GoName: "SessionImport", Dir: ClientToServer, Params: &SessionImportParams{}, Result: &SessionInfo{}, Ordered: true},

	{Name: "snapshot/list", GoName: "SnapshotList", Dir: ClientToServer, Params: &SnapshotListParams{}, Result: &SnapshotListResult{}},
	{Name: "snapshot/diff", GoName: "SnapshotDiff", Dir: ClientToServer, Params: &SnapshotDiffParams{}, Result: &SnapshotDiffResult{}},
	{Name: "snapshot/file", GoName: "SnapshotFile", Dir: ClientToServer, Params: &SnapshotFileParams{}, Result: &SnapshotFileResult{}},
	{Name: "snapshot/create", GoName: "SnapshotCreate", Dir: ClientToServer, Params: &SnapshotCreateParams{}, Result: &SnapshotCreateResult{}, Ordered: true},
	{Name: "snapshot/restore", GoName: "SnapshotRestore", Dir: ClientToServer, Params: &SnapshotRestoreParams{}, Result: &SnapshotRestoreResult{}, Ordered: true},
	{Name: "snapshot/restoreTurn", GoName: "SnapshotRestoreTurn", Dir: ClientToServer, Params: &SnapshotRestoreTurnParams{}, Result: &SnapshotRestoreTurnResult{}, Ordered: true},
	{Name: "snapshot/restoreFile", GoName: "SnapshotRestoreFile", Dir: ClientToServer, Params: &SnapshotRestoreFileParams{}, Result: &SnapshotRestoreResult{}, Ordered: true},

	{Name: "chat/event", GoName: "ChatEvent", Dir: ServerToClient, Notify: true, Params: &ChatEvent{}, Doc: "The ordered per-session event stream."},
	{Name: "confirm/requested", GoName: "ConfirmRequested", Dir: ServerToClient, Notify: true, Params: &ConfirmRequest{}, Doc: "A tool waits for the user."},
	{Name: "confirm/closed", GoName: "ConfirmClosed", Dir: ServerToClient, Notify: true, Params: &ConfirmClosed{}, Doc: "A confirmation is no longer answerable."},
	{Name: "snapshot/created", GoName: "SnapshotCreated", Dir: ServerToClient, Notify: true, Params: &SnapshotInfo{}},
	{Name: "server/notice", GoName: "ServerNotice", Dir: ServerToClient, Notify: true, Params: &ServerNotice{}, Doc: "A message for the user that belongs to no session (start-up problems, a database moved aside)."},
	{Name: "session/didChange", GoName: "SessionDidChange", Dir: ServerToClient, Notify: true, Params: &SessionInfo{}, Doc: "A session's title, status or counts changed."},
	{Name: "editor/applyEdit", GoName: "EditorApplyEdit", Dir: ServerToClient, Params: &ApplyEditParams{}, Result: &ApplyEditResult{}, Doc: "Applies an accepted edit through the editor (undo stack, open buffers)."},
	{Name: "editor/dirtyBuffer", GoName: "EditorDirtyBuffer", Dir: ServerToClient, Params: &DirtyBufferParams{}, Result: &DirtyBufferResult{}},
	{Name: "editor/terminalOutput", GoName: "EditorTerminalOutput", Dir: ServerToClient, Params: &TerminalOutputParams{}, Result: &TerminalOutputResult{}, Doc: "The active terminal's recent output (shell integration), for an @terminal mention; bounded, secrets scrubbed by both sides."},
	{Name: "editor/diagnostics", GoName: "EditorDiagnostics", Dir: ServerToClient, Params: &DiagnosticsParams{}, Result: &DiagnosticsResult{}},
}
