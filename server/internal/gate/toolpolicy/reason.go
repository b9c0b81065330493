package toolpolicy

import "fmt"

// Reason is why a tool is withheld: one sentence, English for the model,
// translated for the person (its Format is a catalogue key).
type Reason struct {
	Format string
	Args   []any
}

// tr marks a reason's format for the catalogue, as the engine's tr marks
// a notice: the i18n check reads its literal first argument.
func tr(format string, args ...any) Reason { return Reason{Format: format, Args: args} }

// String is the reason in English.
func (r Reason) String() string {
	if len(r.Args) == 0 {
		return r.Format
	}
	return fmt.Sprintf(r.Format, r.Args...)
}

// In is the reason in the person's language; translate is a catalogue
// lookup such as the engine's tr (nil: English).
func (r Reason) In(translate func(string, ...any) string) string {
	if translate == nil {
		return r.String()
	}
	return translate(r.Format, r.Args...)
}
