package compact

import (
	"strings"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// SnapshotTag is the XML element the summary must be written in, after
// Gemini CLI's compression prompt.
const SnapshotTag = "state_snapshot"

// Sections of the snapshot, in order.
var Sections = []string{"overall_goal", "key_knowledge", "file_system_state", "recent_actions", "current_plan"}

// Instruction is the last message of a compaction request. Everything
// before it is the conversation exactly as the model saw it, so the
// provider's prefix cache covers the whole request up to here.
const Instruction = `<compaction_request>
The conversation above is about to be compacted: it will be replaced by the summary you write now. That summary becomes your only memory of everything above, and you will continue the work from it alone. Keep every important detail, plan, error, decision and user instruction.

Do not call any tool. First think through the whole history: the user's overall goal, your actions, tool outputs, file changes and anything unresolved. Then reply with one <state_snapshot> XML element and nothing after it. Be extremely dense; leave out conversational filler. Use exactly this structure:

<state_snapshot>
<overall_goal>
<!-- One sentence: the user's high-level objective. -->
</overall_goal>

<key_knowledge>
<!-- Bullet points: facts, conventions and constraints to remember (build and test commands, APIs, user preferences, what did not work and why). -->
</key_knowledge>

<file_system_state>
<!-- Files created, read, modified or deleted, with their state and what was learned (e.g. "MODIFIED: src/auth.go - switched to the new token library"). -->
</file_system_state>

<recent_actions>
<!-- The last significant actions and their outcomes, as facts. -->
</recent_actions>

<current_plan>
<!-- The step-by-step plan with each step's status: [DONE], [IN PROGRESS] or [TODO]. -->
</current_plan>
</state_snapshot>
</compaction_request>`

// InstructionMessage is Instruction as the request's final user message.
func InstructionMessage() llm.Message {
	return llm.Message{Role: llm.RoleUser, Content: Instruction}
}

// IsInstruction reports whether a message is the compaction instruction.
func IsInstruction(content string) bool {
	return strings.HasPrefix(content, "<compaction_request>")
}

// summaryPreamble opens the summary message so the model knows what it is.
const summaryPreamble = "<context>\nThe earlier part of this conversation was compacted into the state snapshot below; it replaces those messages. Continue from it.\n</context>\n\n"

// SummaryPrefix identifies a summary message in a model track.
const SummaryPrefix = summaryPreamble

// SummaryMessage is the user message that replaces the summarised range:
// the snapshot, then what is kept word for word (the user's request, the
// todo list, the user's decisions; Kept.Render), so they are never lost
// to a summary and come back intact after every compaction.
func SummaryMessage(snapshot string, kept Kept) llm.Message {
	var b strings.Builder
	b.WriteString(summaryPreamble)
	b.WriteString(snapshot)
	if block := kept.Render(); block != "" {
		b.WriteString("\n\n")
		b.WriteString(block)
	}
	return llm.Message{Role: llm.RoleUser, Content: b.String()}
}

// Acknowledgement follows the summary when the kept messages start with a
// user message, so roles still alternate for providers that require it.
func Acknowledgement() llm.Message {
	return llm.Message{Role: llm.RoleAssistant, Content: "Understood. I will continue from this state."}
}
