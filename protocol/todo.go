package protocol

type TodoControlParams struct {
	SessionID string `json:"sessionId"`
	Action    string `json:"action"` // stop|skip|retry|resume
	Index     int    `json:"index,omitempty"`
}

type CompactParams struct {
	SessionID string `json:"sessionId"`
}
