package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
)

//go:embed descriptions/ask_human.md
var askHumanDesc string

type askHumanArgs struct {
	Question string   `json:"question" jsonschema:"required" jsonschema_description:"The question for the user, self-contained."`
	Options  []string `json:"options,omitempty" jsonschema_description:"Optional choices shown as buttons."`
}

// Bounds of ask_human's choices (each one is a button).
const (
	MaxHumanOptions = 10
	maxOptionChars  = 200
)

// HumanQuestion is an ask_human call as the asker sees it.
type HumanQuestion struct {
	ToolCallID string
	Question   string
	Options    []string
	// Header, when set, says who asks instead of "The agent asks:" (the
	// plan question is the plan reviewer's), in the user's language.
	Header string
}

// HumanReply is how the user answered. Exactly one outcome holds:
// Cancelled, Closed (the user ended the question's dialog without
// answering it), TimedOut, or a Reply (Done marks the topic finished).
type HumanReply struct {
	Reply     string
	Done      bool
	Cancelled bool
	Closed    bool
	TimedOut  bool
	Timeout   string // the configured wait, for the model's note
}

// HumanAsker is implemented by approvers that can reach a person (the
// editor's dialog, a terminal). An approver without it has nobody to ask.
type HumanAsker interface {
	AskHuman(ctx context.Context, q HumanQuestion) (HumanReply, error)
}

// ErrNoHuman is what an asker returns when no person can answer (a
// headless run without a terminal).
var ErrNoHuman = errors.New("no human is available")

// DialogClosedNote is added to the next tool result after the user closed
// a question's dialog while the agent worked on their reply.
const DialogClosedNote = "Note: the user has since closed the question dialog; take their last reply as final and do not ask about that topic again."

// NoHumanText is the model-visible result when nobody can answer.
const NoHumanText = "No human is available in this run; decide yourself or stop and explain."

// AskHuman returns the ask_human tool.
func AskHuman() Tool {
	return &define[askHumanArgs]{
		name: "ask_human", desc: askHumanDesc, traits: AsksHuman,
		defaults: func() askHumanArgs { return askHumanArgs{} },
		run:      runAskHuman,
	}
}

func runAskHuman(ctx context.Context, env *Env, a askHumanArgs) (Result, error) {
	q := strings.TrimSpace(a.Question)
	if q == "" {
		return FailShown("ask_human needs a non-empty question.", env.Tr("%s: the question is empty.", "ask_human")), nil
	}
	// Deduplicated through a set: a list of 100,000 distinct options
	// compared pairwise held the turn for minutes (issue 31).
	var opts []string
	seen := make(map[string]bool, min(len(a.Options), 64))
	for _, o := range a.Options {
		if o = strings.TrimSpace(o); o != "" && !seen[o] {
			seen[o] = true
			opts = append(opts, o)
		}
	}
	// Choices are buttons: a long list is a form, not a question.
	if len(opts) > MaxHumanOptions {
		return FailShown(fmt.Sprintf("ask_human takes at most %d options (got %d); ask a narrower question or let the user type.", MaxHumanOptions, len(opts)),
			env.Tr("Not asked: the question has %d choices, at most %d are allowed.", len(opts), MaxHumanOptions)), nil
	}
	for _, o := range opts {
		if len([]rune(o)) > maxOptionChars {
			return FailShown(fmt.Sprintf("Each ask_human option is a short label of at most %d characters; put details in the question.", maxOptionChars),
				env.Tr("Not asked: a choice is longer than %d characters.", maxOptionChars)), nil
		}
	}
	asker, ok := env.Approver.(HumanAsker)
	if !ok {
		return FailShown(NoHumanText, env.Tr("Not asked: no one is available to answer in this run.")), nil
	}
	r, err := asker.AskHuman(ctx, HumanQuestion{ToolCallID: CallID(ctx), Question: q, Options: opts})
	if errors.Is(err, ErrNoHuman) {
		return FailShown(NoHumanText, env.Tr("Not asked: no one is available to answer in this run.")), nil
	}
	if err != nil {
		return Result{}, err
	}
	// Every outcome is a successful call: cancelling or not answering is the
	// user's answer, not a failure of the tool.
	return Result{OK: true, Output: HumanReplyText(r)}, nil
}

// HumanReplyText is the model-visible text of a reply.
func HumanReplyText(r HumanReply) string {
	switch {
	case r.Cancelled:
		return "The user cancelled the question."
	case r.Closed:
		return "The user closed the question dialog without answering this question; take their earlier replies as final and do not ask about this topic again."
	case r.TimedOut:
		return "No answer within " + r.Timeout + "; decide yourself or stop and explain."
	case r.Done:
		return "The user replied and is done with this topic: " + r.Reply
	default:
		return "The user replied: " + r.Reply
	}
}
