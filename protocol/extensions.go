package protocol

// Workspace trust, slash commands and the other extensibility methods
// (skills, context files, commands, mentions, hooks, MCP).

// WorkspaceTrustParams is VS Code's workspace trust after a change
// (onDidGrantWorkspaceTrust). Trust gates project skills that can act,
// custom commands and agents, hooks and MCP servers; a change reloads
// them, and what is still skipped arrives as server/notice.
type WorkspaceTrustParams struct {
	Trusted bool `json:"trusted"`
}

// CommandsListParams asks for the chat's slash commands.
type CommandsListParams struct {
	// Prefix filters by name prefix (without the slash); "" lists all.
	Prefix string `json:"prefix,omitempty"`
}

// CommandInfo is one slash command, for autocomplete.
type CommandInfo struct {
	// Name without the slash ("help", "git:commit", "mcp:srv:prompt").
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint,omitempty"`
}

type CommandsListResult struct {
	Commands []CommandInfo `json:"commands"`
}

// Attachment is what one @mention of a user message attached.
type Attachment struct {
	// Kind is file|folder|symbol|problems|git-changes|url|terminal|mcp.
	Kind string `json:"kind"`
	// Raw is the mention as typed, with its '@'.
	Raw       string `json:"raw"`
	Chars     int    `json:"chars"`
	Truncated bool   `json:"truncated,omitempty"`
	// Error says why nothing was attached (refused, missing, unavailable).
	Error string `json:"error,omitempty"`
}

// MCPStatusParams asks for the MCP servers' states.
type MCPStatusParams struct {
	// Connect starts the servers that are not started yet (they start
	// lazily, on the first turn, otherwise).
	Connect bool `json:"connect,omitempty"`
}

// MCPServerStatus is one server's row in the status view.
type MCPServerStatus struct {
	Name string `json:"name"`
	// State is idle|connecting|connected|failed|disabled.
	State  string `json:"state"`
	Kind   string `json:"kind"`   // stdio|http|sse
	Source string `json:"source"` // the config file
	Tools  int    `json:"tools"`
	// SchemaTokens estimates what the server's tool definitions cost in
	// every request.
	SchemaTokens int    `json:"schemaTokens"`
	Error        string `json:"error,omitempty"`
	StderrTail   string `json:"stderrTail,omitempty"`
	Restarts     int    `json:"restarts"`
	// NeedsInputs are .vscode/mcp.json prompted inputs the server waits
	// for; the editor asks the user and answers with mcp/setInputs.
	NeedsInputs []MCPInput `json:"needsInputs,omitempty"`
}

// MCPInput is one prompted input (.vscode/mcp.json "inputs").
type MCPInput struct {
	ID          string `json:"id"`
	Description string `json:"description,omitempty"`
	Password    bool   `json:"password,omitempty"`
}

// MCPSetInputsParams gives values for ${input:id} (kept in the editor's
// SecretStorage). The sidecar keeps them in memory, never logs them, and
// substitutes them only into the server configs that reference them.
type MCPSetInputsParams struct {
	Values map[string]string `json:"values"`
}

type MCPStatusResult struct {
	Servers []MCPServerStatus `json:"servers"`
	// Skipped are project MCP config files not loaded because the
	// workspace is not trusted.
	Skipped []string `json:"skipped"`
}

// MCPServerParams names a server.
type MCPServerParams struct {
	Name string `json:"name"`
}

// MCPSetEnabledParams enables or disables a server for this run of the
// sidecar.
type MCPSetEnabledParams struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
}

// FilesCompleteParams is the @-mention autocomplete query.
type FilesCompleteParams struct {
	// Query is what follows the '@' (fuzzy; "" lists the first files).
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty"` // default 50
}

// FileCompletion is one candidate; folders end with '/'.
type FileCompletion struct {
	Path string `json:"path"` // relative to its root, slash-separated
	// Root is the workspace folder's name when several are open.
	Root string `json:"root,omitempty"`
}

type FilesCompleteResult struct {
	Items []FileCompletion `json:"items"`
	// Partial is set when the walk stopped at its time budget on a large
	// tree: type more to narrow it.
	Partial bool `json:"partial,omitempty"`
}
