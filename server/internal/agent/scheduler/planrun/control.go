package planrun

import (
	"context"
	"strings"
	"unicode"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
)

// Todo control actions (todo/control).
const (
	Stop   = "stop"
	Skip   = "skip"
	Retry  = "retry"
	Resume = "resume"
)

// ResumeText is the message todo/control resume sends.
const ResumeText = "continue"

// resumeWords are messages that continue an interrupted plan rather than
// start a free turn.
var resumeWords = map[string]bool{"continue": true, "go on": true, "resume": true, "carry on": true, "继续": true}

// IsResumeText says whether a message asks to continue ("continue",
// "go on", "resume", "继续").
func IsResumeText(text string) bool { return isResumeText(text) }

func isResumeText(text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	t = strings.TrimRightFunc(t, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	return resumeWords[t]
}

// ResumeTag decides whether a new message resumes the session's plan: it
// must ask to continue, and the plan must have work left. It returns the
// tag of the agent that runs first.
func (r *Runner) ResumeTag(ctx context.Context, sid, text string) (bool, string) {
	if !isResumeText(text) {
		return false, ""
	}
	p, err := r.Read(ctx, sid)
	if err != nil || !p.Unfinished() {
		return false, ""
	}
	return true, p.Clone().Advance().Tag()
}

// ApplyControl applies Skip or Retry of item index (0-based) to p.
func ApplyControl(p *scheduler.Plan, action string, index int) error {
	if action == Skip {
		return p.Skip(index)
	}
	return p.Retry(index)
}
