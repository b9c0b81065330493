package engine

import (
	"errors"

	"github.com/govibe/govibe/server/internal/llm"
)

// humanError turns a run error into a message a person can act on.
func humanError(err error, baseURL string) ErrorInfo {
	switch {
	case errors.Is(err, llm.ErrMissingAPIKey):
		return ErrorInfo{Message: "No API key is set for " + baseURL + ". Set one to start chatting.", Code: "missingKey", Action: "setApiKey"}
	case errors.Is(err, llm.ErrAuth):
		return ErrorInfo{Message: err.Error(), Code: "auth", Action: "setApiKey"}
	case errors.Is(err, llm.ErrUnreachable):
		return ErrorInfo{Message: err.Error(), Code: "unreachable", Action: "openSettings"}
	case errors.Is(err, llm.ErrRateLimited):
		return ErrorInfo{Message: err.Error(), Code: "rateLimited"}
	case errors.Is(err, llm.ErrContextTooLong):
		return ErrorInfo{Message: err.Error(), Code: "contextTooLong"}
	}
	return ErrorInfo{Message: err.Error(), Code: "error", Action: "showLogs"}
}
