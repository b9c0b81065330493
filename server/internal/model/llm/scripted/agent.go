package scripted

import (
	"regexp"
	"strings"
)

// schedulerPrompt matches the prompt the scheduler opens each executor or
// evaluator run with ("[executor:2] ...").
var schedulerPrompt = regexp.MustCompile(`^\[((executor|evaluator):\d+)\] `)

// SchedulerAgent names the scheduled agent a request belongs to: the last
// agent prompt in it ("executor:1"; summaries replace finished agents'
// prompts), "final" for the scheduler's closing phase, else "free". Step
// counts the assistant messages since that prompt. Tests use it to script
// replies per agent and to check which agent the engine called.
func (r *RecordedRequest) SchedulerAgent() (agent string, step int) {
	start, who := 0, "free"
	for i, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		if g := schedulerPrompt.FindStringSubmatch(m.Content); g != nil {
			start, who = i, g[1]
		} else if strings.HasPrefix(m.Content, "[scheduler]") {
			start, who = i, "final"
		}
	}
	for _, m := range r.Messages[start:] {
		if m.Role == "assistant" {
			step++
		}
	}
	return who, step
}
