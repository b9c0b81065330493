package protocol

// SkillsListParams asks for the skill catalog with the session's active
// skills marked.
type SkillsListParams struct {
	SessionID string `json:"sessionId,omitempty"`
}

// SkillInfo is one skill of the catalog, for the chat's skills picker.
type SkillInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Source is project|compat|user|user-compat|builtin.
	Source string `json:"source"`
	// Active says the skill applies to the session's turns; Scope says
	// where it was activated: session|workspace.
	Active bool   `json:"active"`
	Scope  string `json:"scope,omitempty"`
}

type SkillsListResult struct {
	Skills []SkillInfo `json:"skills"`
}

// SkillsSetActiveParams activates or deactivates a skill. Workspace
// activates it for every session of the workspace; deactivating removes it
// from both the session and the workspace.
type SkillsSetActiveParams struct {
	SessionID string `json:"sessionId,omitempty"`
	Name      string `json:"name"`
	Active    bool   `json:"active"`
	Workspace bool   `json:"workspace,omitempty"`
}
