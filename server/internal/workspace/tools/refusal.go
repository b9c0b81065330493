package tools

import (
	"errors"
	"fmt"

	"github.com/govibe/govibe/server/internal/gate/sandbox"
)

// Refusal is an error a tool reports as a failure worded twice: Reason
// for the model (English, with what to do instead) and Display for the
// person watching, in their language. Env.Readable returns one.
type Refusal struct {
	Reason  string
	Display string
}

func (r *Refusal) Error() string { return r.Reason }

// Tr words a message for the person in their language (Env.Translator), or in
// English when no translator is set (tests, tools run on their own).
func (env *Env) Tr(format string, args ...any) string {
	if env != nil && env.Translator != nil {
		return env.Translator(format, args...)
	}
	return fmt.Sprintf(format, args...)
}

// failFrom is Fail(err.Error()) with the words a person reads: a
// Refusal's Display, or a translated line for a path the sandbox refuses.
// Other errors show under a translated lead.
func failFrom(env *Env, err error) Result {
	r := Fail(err.Error())
	var ref *Refusal
	var esc *sandbox.EscapeError
	switch {
	case errors.As(err, &ref):
		r.Display = ref.Display
	case errors.As(err, &esc):
		r.Display = env.Tr("Refused: the path %s is outside the workspace or not allowed.", esc.Path)
	default:
		r.Display = env.Tr("Refused: %v", err)
	}
	return r
}
