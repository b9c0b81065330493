package store

import (
	"encoding/json"
	"fmt"
)

// PartKind tags the variant a Part holds.
type PartKind string

const (
	PartText       PartKind = "text"
	PartReasoning  PartKind = "reasoning"
	PartToolCall   PartKind = "tool_call"
	PartToolResult PartKind = "tool_result"
	PartNotice     PartKind = "notice"
)

// Part is one piece of a message: a tagged union whose Kind says which of
// the other fields is set. Text is used by text and reasoning parts.
type Part struct {
	Kind       PartKind    `json:"type"`
	Text       string      `json:"text,omitempty"`
	ToolCall   *ToolCall   `json:"tool_call,omitempty"`
	ToolResult *ToolResult `json:"tool_result,omitempty"`
	Notice     *Notice     `json:"notice,omitempty"`
}

// ToolCallStatus tracks a tool call from request to result.
type ToolCallStatus string

const (
	ToolPending   ToolCallStatus = "pending"
	ToolRunning   ToolCallStatus = "running"
	ToolDone      ToolCallStatus = "done"
	ToolError     ToolCallStatus = "error"
	ToolCancelled ToolCallStatus = "cancelled"
)

func (st ToolCallStatus) valid() bool {
	switch st {
	case ToolPending, ToolRunning, ToolDone, ToolError, ToolCancelled:
		return true
	}
	return false
}

// ToolCall is a tool invocation requested by the model.
type ToolCall struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments string         `json:"arguments"` // raw JSON text as the model produced it
	Status    ToolCallStatus `json:"status"`
}

// ToolResult is what a tool returned for ToolCallID.
type ToolResult struct {
	ToolCallID string          `json:"tool_call_id"`
	OK         bool            `json:"ok"`
	Output     string          `json:"output"`
	Meta       json.RawMessage `json:"meta,omitempty"`
	// Display is what a person is shown instead of Output, in their
	// language (kept in the part's JSON; no migration needed).
	Display string `json:"display,omitempty"`
	// DurationMs is how long the tool ran, kept so a reopened session's
	// cards still show it (0 in rows written before it was stored).
	DurationMs int64 `json:"duration_ms,omitempty"`
}

// NoticeLevel grades a Notice.
type NoticeLevel string

const (
	NoticeInfo  NoticeLevel = "info"
	NoticeWarn  NoticeLevel = "warn"
	NoticeError NoticeLevel = "error"
)

// Notice is a user-visible remark inside a message (retries, compaction,
// interruptions); the model never sees it.
type Notice struct {
	Level NoticeLevel `json:"level"`
	Text  string      `json:"text"`
}

// Validate reports whether exactly the field matching Kind is set and the
// variant is well formed.
func (p Part) Validate() error {
	set := 0
	for _, ok := range []bool{p.ToolCall != nil, p.ToolResult != nil, p.Notice != nil} {
		if ok {
			set++
		}
	}
	switch p.Kind {
	case PartText, PartReasoning:
		if set != 0 {
			return invalidf("%s part carries a %s", p.Kind, p.otherField())
		}
	case PartToolCall:
		if set != 1 || p.ToolCall == nil || p.Text != "" {
			return invalidf("tool_call part must carry only a tool call")
		}
		tc := p.ToolCall
		if tc.ID == "" || tc.Name == "" {
			return invalidf("tool call needs an id and a name")
		}
		if !tc.Status.valid() {
			return invalidf("tool call %s status %q", tc.ID, tc.Status)
		}
	case PartToolResult:
		if set != 1 || p.ToolResult == nil || p.Text != "" {
			return invalidf("tool_result part must carry only a tool result")
		}
		if p.ToolResult.ToolCallID == "" {
			return invalidf("tool result needs a tool_call_id")
		}
		if len(p.ToolResult.Meta) > 0 && !json.Valid(p.ToolResult.Meta) {
			return invalidf("tool result %s meta is not valid JSON", p.ToolResult.ToolCallID)
		}
	case PartNotice:
		if set != 1 || p.Notice == nil || p.Text != "" {
			return invalidf("notice part must carry only a notice")
		}
		switch p.Notice.Level {
		case NoticeInfo, NoticeWarn, NoticeError:
		default:
			return invalidf("notice level %q (want info, warn or error)", p.Notice.Level)
		}
	default:
		return invalidf("part type %q", p.Kind)
	}
	return nil
}

func (p Part) otherField() string {
	switch {
	case p.ToolCall != nil:
		return "tool call"
	case p.ToolResult != nil:
		return "tool result"
	}
	return "notice"
}

// encode splits a part into its row columns (text, data).
func (p Part) encode() (string, any, error) {
	var v any
	switch p.Kind {
	case PartText, PartReasoning:
		return p.Text, nil, nil
	case PartToolCall:
		v = p.ToolCall
	case PartToolResult:
		v = p.ToolResult
	case PartNotice:
		v = p.Notice
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", nil, err
	}
	return "", string(b), nil
}

func decodePart(kind PartKind, text string, data []byte) (Part, error) {
	p := Part{Kind: kind}
	var target any
	switch kind {
	case PartText, PartReasoning:
		p.Text = text
		return p, nil
	case PartToolCall:
		p.ToolCall = &ToolCall{}
		target = p.ToolCall
	case PartToolResult:
		p.ToolResult = &ToolResult{}
		target = p.ToolResult
	case PartNotice:
		p.Notice = &Notice{}
		target = p.Notice
	default:
		return p, fmt.Errorf("stored part has unknown kind %q", kind)
	}
	if err := json.Unmarshal(data, target); err != nil {
		return p, fmt.Errorf("stored %s part: %w", kind, err)
	}
	return p, nil
}

func clonePart(p Part) Part {
	if p.ToolCall != nil {
		tc := *p.ToolCall
		p.ToolCall = &tc
	}
	if p.ToolResult != nil {
		tr := *p.ToolResult
		tr.Meta = append(json.RawMessage(nil), tr.Meta...)
		p.ToolResult = &tr
	}
	if p.Notice != nil {
		n := *p.Notice
		p.Notice = &n
	}
	return p
}
