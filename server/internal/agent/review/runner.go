package review

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// Kind names a reviewer. The values are the UI's card kinds, except the
// shell editor, whose answer is a rewrite rather than a verdict.
type Kind string

const (
	KindPlan        Kind = "plan"
	KindEdit        Kind = "edit"
	KindShell       Kind = "shell"
	KindShellEditor Kind = "shell-editor"
)

// Runner makes one reviewer's model calls. A Runner is a value configured
// per review; it holds no state between calls, so one may be used from
// several goroutines at once if its Client allows it (llm clients do).
type Runner struct {
	Client llm.Client
	// Timeout bounds the whole review, corrective retry included; zero
	// leaves only the caller's context.
	Timeout time.Duration
	// MaxTokens caps each answer; zero is the profile's default.
	MaxTokens int
	// SessionID is sent with each request so that usage is accounted to
	// the session the review belongs to.
	SessionID string
}

// Outcome is what one review produced. When Unavailable is set the Verdict
// is meaningless and must not be read as an approval.
type Outcome struct {
	Verdict  Verdict
	Duration time.Duration
	// Transcript is everything sent and received, system prompt first, for
	// the hidden reviewer session.
	Transcript []llm.Message
	// Unavailable says why no valid verdict was obtained.
	Unavailable string
}

// Review asks the reviewer of kind for a verdict on prompt.
func (r *Runner) Review(ctx context.Context, kind Kind, prompt string) Outcome {
	system, ok := systemPrompts[kind]
	if !ok || kind == KindShellEditor {
		return Outcome{Unavailable: fmt.Sprintf("no reviewer of kind %q", kind)}
	}
	var v Verdict
	tr, d, err := r.converse(ctx, system, prompt, func(text string) error {
		var err error
		v, err = ParseVerdict(text)
		return err
	})
	out := Outcome{Duration: d, Transcript: tr}
	if err != nil {
		out.Unavailable = err.Error()
		return out
	}
	out.Verdict = v
	return out
}

// converse sends the prompt and validates the answer; a malformed answer
// gets exactly one corrective retry that quotes the validation error.
func (r *Runner) converse(ctx context.Context, system, prompt string, validate func(string) error) ([]llm.Message, time.Duration, error) {
	start := time.Now()
	if r.Client == nil {
		return nil, 0, errors.New("no model is configured for the reviewer")
	}
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	msgs := []llm.Message{{Role: llm.RoleSystem, Content: system}, {Role: llm.RoleUser, Content: prompt}}
	for attempt := 1; ; attempt++ {
		resp, err := r.Client.Stream(ctx, llm.Request{Messages: msgs, MaxTokens: r.MaxTokens, SessionID: r.SessionID, Purpose: llm.PurposeReview}, nil)
		if err != nil {
			return msgs, time.Since(start), callError(ctx, err, r.Timeout)
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: resp.Content})
		verr := validate(resp.Content)
		if verr == nil {
			return msgs, time.Since(start), nil
		}
		if attempt == 2 {
			return msgs, time.Since(start), fmt.Errorf("the reviewer's answer was malformed twice: %v", verr)
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: "Your answer could not be used: " + verr.Error() +
			".\nReply again with only the JSON object described in your instructions, and nothing else."})
	}
}

func callError(ctx context.Context, err error, timeout time.Duration) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		if timeout > 0 {
			return fmt.Errorf("timed out after %s", timeout.Round(time.Millisecond))
		}
		return errors.New("timed out")
	case errors.Is(err, context.Canceled):
		return errors.New("cancelled")
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i > 0 {
		msg = msg[:i]
	}
	return errors.New(msg)
}
