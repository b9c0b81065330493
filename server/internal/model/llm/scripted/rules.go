package scripted

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Rule answers requests whose latest input contains Match.
type Rule struct {
	// Match is a substring of the latest input; empty matches everything.
	Match string `json:"match"`
	// On restricts the latest input to "user" (the last user message, when
	// the conversation does not end with a tool result) or "tool" (the
	// trailing tool result). Empty accepts either.
	On    string `json:"on,omitempty"`
	Reply Reply  `json:"reply"`
}

// Rules is the JSON script format of the scriptedmodel command:
//
//	{"rules": [{"match": "read the file", "reply": {"tool_calls": [...]}},
//	           {"match": "package main", "on": "tool", "reply": {"text": "Done."}}],
//	 "default": {"text": "..."}}
//
// The first matching rule wins; without a match the default answers, and
// without a default the server echoes the input.
type Rules struct {
	Rules   []Rule `json:"rules"`
	Default *Reply `json:"default,omitempty"`
}

// ParseRules decodes and validates a script. Unknown fields are errors so a
// typo cannot silently turn a rule into a no-op.
func ParseRules(data []byte) (*Rules, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Rules
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("invalid rules script: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("invalid rules script: trailing data after the JSON object")
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &r, nil
}

// Validate checks every rule and the default.
func (r *Rules) Validate() error {
	for i, rule := range r.Rules {
		switch rule.On {
		case "", "user", "tool":
		default:
			return fmt.Errorf("rules[%d]: on must be \"user\", \"tool\" or empty, got %q", i, rule.On)
		}
		if err := rule.Reply.Validate(); err != nil {
			return fmt.Errorf("rules[%d]: %w", i, err)
		}
	}
	if r.Default != nil {
		if err := r.Default.Validate(); err != nil {
			return fmt.Errorf("default: %w", err)
		}
	}
	return nil
}

// Reply picks the answer for req.
func (r *Rules) Reply(req *RecordedRequest) Reply {
	kind, input := req.LatestInput()
	for _, rule := range r.Rules {
		if rule.On != "" && rule.On != kind {
			continue
		}
		if strings.Contains(input, rule.Match) {
			return rule.Reply
		}
	}
	if r.Default != nil {
		return *r.Default
	}
	return EchoReply(req)
}

// EchoReply repeats the latest input back as markdown with a code block, so
// end-to-end tests can see their prompt made the round trip.
func EchoReply(req *RecordedRequest) Reply {
	kind, input := req.LatestInput()
	if kind == "tool" {
		if len(input) > 2000 {
			input = input[:2000] + "…"
		}
		return Reply{Text: "Tool result received:\n\n```text\n" + input + "\n```\n"}
	}
	// The engine wraps the user's words with an internal <context> block
	// (open files, selection); echoing it would show a person plumbing.
	input = strings.TrimSpace(contextBlock.ReplaceAllString(input, ""))
	return Reply{Text: "You said: " + input + "\n\n```text\n" + input + "\n```\n"}
}

var contextBlock = regexp.MustCompile(`(?s)<context>.*?</context>`)
