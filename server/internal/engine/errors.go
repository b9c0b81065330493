package engine

import (
	"errors"

	"github.com/govibe/govibe/server/internal/i18n"
	"github.com/govibe/govibe/server/internal/llm"
)

// lang is the language of user-facing messages: govibe.language, else the
// editor's UI locale.
func (e *Engine) lang() i18n.Lang {
	return i18n.Pick(e.cfg().Language, e.opts.HostInfo.Language)
}

// tr localises a user-facing message.
func (e *Engine) tr(msg string, args ...any) string { return i18n.T(e.lang(), msg, args...) }

// Tr localises a user-facing message for callers outside the engine.
func (e *Engine) Tr(msg string, args ...any) string { return e.tr(msg, args...) }

// humanError turns a run error into a message a person can act on.
func (e *Engine) humanError(err error, baseURL string) ErrorInfo {
	switch {
	case errors.Is(err, llm.ErrMissingAPIKey):
		return ErrorInfo{Message: e.tr("No API key is set for %s. Set one to start chatting.", baseURL), Code: "missingKey", Action: "setApiKey"}
	case errors.Is(err, llm.ErrAuth):
		return ErrorInfo{Message: e.tr("The model endpoint rejected the API key: %s", err.Error()), Code: "auth", Action: "setApiKey"}
	case errors.Is(err, llm.ErrUnreachable):
		return ErrorInfo{Message: e.tr("The model endpoint cannot be reached: %s", err.Error()), Code: "unreachable", Action: "openSettings"}
	case errors.Is(err, llm.ErrRateLimited):
		return ErrorInfo{Message: e.tr("The model endpoint is rate-limiting requests: %s", err.Error()), Code: "rateLimited"}
	case errors.Is(err, llm.ErrContextTooLong):
		return ErrorInfo{Message: e.tr("The conversation no longer fits the model's context window: %s", err.Error()), Code: "contextTooLong"}
	}
	return ErrorInfo{Message: e.tr("The model request failed: %s", err.Error()), Code: "error", Action: "showLogs"}
}
