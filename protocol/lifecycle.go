package protocol

// InitializeParams opens a connection.
type InitializeParams struct {
	ProtocolVersion  int               `json:"protocolVersion"`
	ClientInfo       ClientInfo        `json:"clientInfo"`
	WorkspaceFolders []WorkspaceFolder `json:"workspaceFolders"`
	// StorageDir is the workspace's folder in the extension's global
	// storage, named by a hash of the workspace's identity (its folders or
	// its .code-workspace file), so every window on the workspace shares
	// it; sessions and snapshots live under it.
	StorageDir string `json:"storageDir"`
	// LegacyStorageDirs are the per-window storage slots that kept this
	// workspace's sessions before: their sessions and snapshots are merged
	// into StorageDir, once each.
	LegacyStorageDirs []string `json:"legacyStorageDirs,omitempty"`
	// Locale is the editor's UI language ("en", "zh-cn", ...);
	// govibe.language, when not "auto", picks over it.
	Locale       string             `json:"locale"`
	Settings     Settings           `json:"settings"`
	Capabilities ClientCapabilities `json:"capabilities"`
	// Trusted is VS Code's workspace trust; project-level config loads only
	// when true.
	Trusted bool `json:"trusted"`
	// Host describes the editor environment for the system prompt.
	Host HostInfo `json:"host"`
}

type ClientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type WorkspaceFolder struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

// ClientCapabilities say which server→client requests the client answers.
type ClientCapabilities struct {
	ApplyEdit   bool `json:"applyEdit"`
	DirtyBuffer bool `json:"dirtyBuffer"`
	Diagnostics bool `json:"diagnostics"`
	Confirm     bool `json:"confirm"`
	// TerminalOutput: the client answers editor/terminalOutput.
	TerminalOutput bool `json:"terminalOutput,omitempty"`
}

type HostInfo struct {
	OS          string `json:"os"`
	Shell       string `json:"shell"`
	RipgrepPath string `json:"ripgrepPath"`
}

type InitializeResult struct {
	ProtocolVersion int                `json:"protocolVersion"`
	ServerInfo      ClientInfo         `json:"serverInfo"`
	Capabilities    ServerCapabilities `json:"capabilities"`
	// Notices are user-visible start-up messages known at once. Problems
	// found while the session store opens in the background (e.g. a corrupt
	// database moved aside) arrive later as server/notice.
	Notices []string `json:"notices"`
}

type ServerCapabilities struct {
	Tools     []string `json:"tools"`
	Snapshots bool     `json:"snapshots"`
	Sessions  bool     `json:"sessions"`
}

// ModelProfile is one entry of govibe.models.
type ModelProfile struct {
	Name            string  `json:"name"`
	BaseURL         string  `json:"baseUrl"`
	Model           string  `json:"model"`
	APIKey          string  `json:"apiKey,omitempty"`
	ContextWindow   int     `json:"contextWindow,omitempty"`
	MaxOutputTokens int     `json:"maxOutputTokens,omitempty"`
	ToolCalling     string  `json:"toolCalling,omitempty"` // native|text|auto
	PriceInput      float64 `json:"priceInput,omitempty"`
	PriceCached     float64 `json:"priceCachedInput,omitempty"`
	PriceOutput     float64 `json:"priceOutput,omitempty"`
}

// Settings is the govibe.* snapshot. Values holds every key verbatim
// (without the "govibe." prefix) so new settings need no protocol change;
// APIKeys comes from SecretStorage, keyed by profile name ("" = default).
// Workspace holds what the workspace and its folders set, verbatim: the
// sidecar applies the settings schema's scopes to it (a workspace may
// restrict but never allow), so Values carries the user's level only.
type Settings struct {
	Values    map[string]any    `json:"values"`
	APIKeys   map[string]string `json:"apiKeys,omitempty"`
	Workspace map[string]any    `json:"workspace,omitempty"`
}

type SettingsDidChangeParams struct {
	Settings Settings `json:"settings"`
}

type Empty struct{}

// ServerNotice is a user-visible message outside any session. Action names
// a remedy the client can offer ("showLogs", "openSettings", or
// "trustWorkspace" on the notices of what an untrusted workspace skipped).
// With Withdraw set the notice carries no message: the notices with that
// Action already shown are no longer true (trust was granted) and the
// client removes them.
type ServerNotice struct {
	Level    string `json:"level"` // info|warning|error
	Message  string `json:"message"`
	Action   string `json:"action,omitempty"`
	Withdraw bool   `json:"withdraw,omitempty"`
}
