package tools

import (
	"context"
	"encoding/json"
)

// Result is what the model sees for one tool call.
type Result struct {
	OK     bool   `json:"ok"`
	Output string `json:"output"`
	// Meta carries structured data for the UI (e.g. the shell result, the
	// diff of an applied edit). It is never sent to the model.
	Meta any `json:"meta,omitempty"`
	// Display, when set, is what a person is shown instead of Output, in
	// their language (a refusal the approver worded for them). It is
	// never sent to the model.
	Display string `json:"display,omitempty"`
}

// Failf builds a model-visible failure.
func Fail(msg string) Result { return Result{OK: false, Output: msg} }

// Tool is one model-visible tool.
type Tool interface {
	Name() string
	Description() string
	// Schema is the JSON schema of the arguments object.
	Schema() json.RawMessage
	// ReadOnly tools may run in parallel.
	ReadOnly() bool
	// Traits say what the tool does; which roles, modes and profiles
	// offer it follows from them (package toolpolicy).
	Traits() Traits
	Run(ctx context.Context, env *Env, args json.RawMessage) (Result, error)
}
