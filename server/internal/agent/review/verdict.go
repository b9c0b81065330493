package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Severities of a Problem.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Problem is one finding of a reviewer or a static check.
type Problem struct {
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Location string `json:"location,omitempty"`
}

// Verdict is a reviewer's structured answer.
type Verdict struct {
	Approved   bool      `json:"approved"`
	Problems   []Problem `json:"problems"`
	Suggestion string    `json:"suggestion,omitempty"`
}

// severityAliases maps the words models use for severities onto ours, so
// that "critical" or "minor" does not cost a corrective round trip.
var severityAliases = map[string]string{
	"error": SeverityError, "critical": SeverityError, "blocker": SeverityError, "high": SeverityError, "major": SeverityError, "fatal": SeverityError,
	"warning": SeverityWarning, "warn": SeverityWarning, "medium": SeverityWarning, "minor": SeverityWarning, "low": SeverityWarning,
	"info": SeverityInfo, "note": SeverityInfo, "suggestion": SeverityInfo, "nit": SeverityInfo,
}

// ParseVerdict extracts and validates a verdict from a model's answer. The
// JSON may be wrapped in a code fence or surrounded by prose. Errors say
// what is wrong in words the model can act on in its corrective retry.
func ParseVerdict(text string) (Verdict, error) {
	raw, err := extractObject(text)
	if err != nil {
		return Verdict{}, err
	}
	var w struct {
		Approved *bool `json:"approved"`
		Problems []struct {
			Severity string `json:"severity"`
			Message  string `json:"message"`
			Location any    `json:"location"`
		} `json:"problems"`
		Suggestion any `json:"suggestion"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return Verdict{}, fmt.Errorf("the verdict is not valid JSON of the required shape: %v", err)
	}
	if w.Approved == nil {
		return Verdict{}, errors.New(`the verdict has no boolean "approved" field`)
	}
	v := Verdict{Approved: *w.Approved, Suggestion: strings.TrimSpace(flatten(w.Suggestion))}
	var bad []string
	for i, p := range w.Problems {
		sev, ok := severityAliases[strings.ToLower(strings.TrimSpace(p.Severity))]
		if !ok {
			bad = append(bad, fmt.Sprintf("problems[%d].severity is %q; use \"error\", \"warning\" or \"info\"", i, p.Severity))
		}
		msg := strings.TrimSpace(p.Message)
		if msg == "" {
			bad = append(bad, fmt.Sprintf("problems[%d].message is empty", i))
		}
		v.Problems = append(v.Problems, Problem{Severity: sev, Message: msg, Location: strings.TrimSpace(flatten(p.Location))})
	}
	if len(bad) > 0 {
		return Verdict{}, errors.New(strings.Join(bad, "; "))
	}
	if !v.Approved && len(v.Problems) == 0 {
		return Verdict{}, errors.New(`"approved" is false but "problems" is empty: a rejection must name at least one problem`)
	}
	if v.Approved {
		for _, p := range v.Problems {
			if p.Severity == SeverityError {
				return Verdict{}, fmt.Errorf(`"approved" is true but the problem %q has severity "error": reject, or lower its severity`, p.Message)
			}
		}
	}
	return v, nil
}

// flatten turns a location or suggestion that a model wrote as a number,
// list or object into text rather than failing the verdict over it.
func flatten(x any) string {
	switch x := x.(type) {
	case nil:
		return ""
	case string:
		return x
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// extractObject finds the JSON object in a model's answer: the whole text,
// the inside of a code fence, or the span from the first "{" to the last
// "}".
func extractObject(text string) ([]byte, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return nil, errors.New("the answer is empty; reply with the JSON object only")
	}
	if json.Valid([]byte(s)) && strings.HasPrefix(s, "{") {
		return []byte(s), nil
	}
	if i := strings.Index(s, "```"); i >= 0 {
		rest := s[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			if in := strings.TrimSpace(rest[:j]); json.Valid([]byte(in)) && strings.HasPrefix(in, "{") {
				return []byte(in), nil
			}
		}
	}
	i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}')
	if i >= 0 && j > i && json.Valid([]byte(s[i:j+1])) {
		return []byte(s[i : j+1]), nil
	}
	return nil, errors.New("the answer does not contain a valid JSON object; reply with the JSON object only")
}

// Blocking reports whether the problems include an error.
func Blocking(ps []Problem) bool {
	for _, p := range ps {
		if p.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Format renders problems for the model, one per line.
func Format(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("- [" + p.Severity + "] " + p.Message)
		if p.Location != "" {
			b.WriteString(" (" + p.Location + ")")
		}
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}
