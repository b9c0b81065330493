package protocol

type TodoItem struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Acceptance  string `json:"acceptance,omitempty"`
	Status      string `json:"status"` // pending|running|done|failed|skipped|interrupted
	Agent       string `json:"agent,omitempty"`
	Turns       int    `json:"turns,omitempty"`
	Attempts    int    `json:"attempts,omitempty"`
	Summary     string `json:"summary,omitempty"`
}

type TodoState struct {
	Goal    string     `json:"goal"`
	Items   []TodoItem `json:"items"`
	Current int        `json:"current"` // 0-based index, -1 when none
	Phase   string     `json:"phase"`   // free|scheduling
}

type TodoControlParams struct {
	SessionID string `json:"sessionId"`
	Action    string `json:"action"` // stop|skip|retry|resume
	Index     int    `json:"index,omitempty"`
}

type CompactParams struct {
	SessionID string `json:"sessionId"`
}
