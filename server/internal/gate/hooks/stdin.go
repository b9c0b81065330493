package hooks

import (
	"encoding/json"
	"time"
)

// Input is one event, as GoVibe knows it: the tool by its GoVibe name and
// arguments. Each hook reads it in its own format's payload (claudeStdin,
// copilotStdin). The JSON tags are Claude Code's field names.
type Input struct {
	SessionID string `json:"session_id"`
	// TranscriptPath is a JSONL file of the session's conversation the
	// hook may read (the manager writes it).
	TranscriptPath string `json:"transcript_path,omitempty"`
	Cwd            string `json:"cwd"`
	// PermissionMode is Claude Code's name for the session's approval
	// mode: default, plan, acceptEdits or bypassPermissions.
	PermissionMode string          `json:"permission_mode,omitempty"`
	HookEventName  Event           `json:"hook_event_name"`
	ToolName       string          `json:"tool_name,omitempty"`  // GoVibe's
	ToolInput      json.RawMessage `json:"tool_input,omitempty"` // GoVibe's
	ToolResponse   json.RawMessage `json:"tool_response,omitempty"`
	ToolUseID      string          `json:"tool_use_id,omitempty"`
	Error          string          `json:"error,omitempty"` // PostToolUseFailure
	Prompt         string          `json:"prompt,omitempty"`
	Message        string          `json:"message,omitempty"`
	Trigger        string          `json:"trigger,omitempty"` // PreCompact: manual|auto
	Source         string          `json:"source,omitempty"`  // SessionStart: startup|resume|clear
	Reason         string          `json:"reason,omitempty"`  // SessionEnd
	AgentTag       string          `json:"agent,omitempty"`   // SubagentStop: executor:1, investigate...
	StopHookActive bool            `json:"stop_hook_active,omitempty"`
}

// size is the event's size in bytes, for the watchdog's message.
func (in Input) size() int {
	return len(in.ToolInput) + len(in.ToolResponse) + len(in.Prompt) + len(in.Message) + len(in.Error)
}

// matchNames are the names a hook's matcher is tested against: for tool
// events the tool's names in the hook's format and GoVibe's, for others
// the field Claude Code's matcher filters (SessionStart's source, …).
func (in Input) matchNames(f Format, roots []string) []string {
	switch in.HookEventName {
	case PreToolUse, PostToolUse, PostToolUseFailure:
		if in.ToolName == "" {
			return nil
		}
		v := in.view(f, roots)
		names := []string{v.Name, in.ToolName}
		if v.Name == "Task" {
			names = append(names, "Agent")
		}
		return names
	case SessionStart:
		return []string{in.Source}
	case SessionEnd:
		return []string{in.Reason}
	case PreCompact:
		return []string{in.Trigger}
	case SubagentStop:
		return []string{agentType(in.AgentTag)}
	}
	return nil
}

func (in Input) view(f Format, roots []string) view {
	if f == FormatCopilot {
		return copilotView(in.ToolName, in.ToolInput, roots)
	}
	return claudeView(in.ToolName, in.ToolInput, roots)
}

// agentType is a sub-agent tag's type: "executor:2" is executor,
// "agent:reviewer" is reviewer.
func agentType(tag string) string {
	for i := 0; i < len(tag); i++ {
		if tag[i] == ':' {
			if tag[:i] == "agent" {
				return tag[i+1:]
			}
			return tag[:i]
		}
	}
	return tag
}

// claudeStdin is the payload Claude Code documents: the common fields,
// the event's own, and the tool in Claude Code's names. GoVibe's own name
// and arguments ride along in govibe_tool_name and govibe_tool_input.
func (in Input) claudeStdin(v view) ([]byte, error) {
	m := map[string]any{
		"session_id": in.SessionID, "transcript_path": in.TranscriptPath, "cwd": in.Cwd,
		"permission_mode": in.PermissionMode, "hook_event_name": in.HookEventName,
	}
	set := func(k string, val any, ok bool) {
		if ok {
			m[k] = val
		}
	}
	if in.ToolName != "" {
		m["tool_name"], m["tool_input"] = v.Name, v.Input
		m["govibe_tool_name"], m["govibe_tool_input"] = in.ToolName, rawOrEmpty(in.ToolInput)
		set("tool_use_id", in.ToolUseID, in.ToolUseID != "")
	}
	set("tool_response", in.ToolResponse, len(in.ToolResponse) > 0)
	set("error", in.Error, in.Error != "")
	set("prompt", in.Prompt, in.HookEventName == UserPromptSubmit)
	set("message", in.Message, in.Message != "")
	set("trigger", in.Trigger, in.Trigger != "")
	set("source", in.Source, in.Source != "")
	set("reason", in.Reason, in.Reason != "")
	if in.AgentTag != "" {
		m["agent_type"], m["agent_id"] = agentType(in.AgentTag), in.AgentTag
	}
	set("stop_hook_active", in.StopHookActive, in.HookEventName == Stop || in.HookEventName == SubagentStop)
	return json.Marshal(m)
}

// copilotStdin is Copilot's payload: camelCase, a millisecond timestamp,
// and toolArgs as a JSON string (its documented shape); toolInput holds
// the same object, as some published Copilot hooks read it.
func (in Input) copilotStdin(v view, now time.Time) ([]byte, error) {
	m := map[string]any{"timestamp": now.UnixMilli(), "cwd": in.Cwd, "sessionId": in.SessionID}
	if in.ToolName != "" {
		args, _ := json.Marshal(v.Input)
		m["toolName"], m["toolArgs"], m["toolInput"] = v.Name, string(args), v.Input
	}
	switch in.HookEventName {
	case PostToolUse, PostToolUseFailure:
		kind, text := "success", ""
		var resp struct {
			Output string `json:"output"`
		}
		_ = json.Unmarshal(in.ToolResponse, &resp)
		text = resp.Output
		if in.HookEventName == PostToolUseFailure {
			kind, text = "failure", in.Error
		}
		m["toolResult"] = map[string]any{"resultType": kind, "textResultForLlm": text}
	case UserPromptSubmit:
		m["prompt"] = in.Prompt
	case SessionStart:
		src := "new"
		if in.Source == "resume" {
			src = "resume"
		}
		m["source"] = src
	case SessionEnd:
		m["reason"] = "complete"
	case Notification:
		m["message"] = in.Message
	}
	return json.Marshal(m)
}

func rawOrEmpty(r json.RawMessage) json.RawMessage {
	if len(r) == 0 {
		return json.RawMessage("{}")
	}
	return r
}
