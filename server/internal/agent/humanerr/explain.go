package humanerr

import (
	"errors"
	"strconv"
	"strings"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/providers"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/model/usage/budgetgate"
)

// Info is a human-readable error with an optional remedy.
type Info struct {
	Message string
	Code    string
	Action  string // setApiKey|openSettings|showLogs|continue|pickModel
}

// Explain turns a run error into a message a person can act on, in the
// language of tr throughout: it is composed from the error's fields
// (endpoint, status, attempts), and only the provider's own words are
// quoted as they came. baseURL is the active profile's, named when no API
// key is set.
func Explain(tr func(string, ...any) string, err error, baseURL string) Info {
	var (
		auth *llm.AuthError
		un   *llm.UnreachableError
		rl   *llm.RateLimitError
		ctl  *llm.ContextTooLongError
		rex  *llm.RetriesExhaustedError
		api  *llm.APIError
		bud  *usage.BudgetError
	)
	switch {
	case errors.As(err, &bud):
		return Info{Message: budgetgate.Stopped(tr, bud), Code: "budget", Action: "openSettings"}
	case errors.Is(err, llm.ErrMissingAPIKey):
		return Info{Message: tr("No API key is set for %s. Set one to start chatting.", baseURL), Code: "missingKey", Action: "setApiKey"}
	case errors.As(err, &auth):
		return Info{Message: tr("The model endpoint %s rejected the API key (HTTP %d). Check the key and the base URL in GoVibe settings.", auth.BaseURL, auth.Status) + said(tr, auth.Detail),
			Code: "auth", Action: "setApiKey"}
	case errors.As(err, &un):
		return Info{Message: tr("The model endpoint %s cannot be reached (%v). Check the base URL, your network and proxy settings.", un.Host, un.Err),
			Code: "unreachable", Action: "openSettings"}
	case errors.As(err, &rl):
		return Info{Message: tr("The model endpoint is rate-limiting requests; GoVibe gave up after %d attempt(s).", rl.Attempts) + " " +
			tr("Wait a minute and send again, or switch to another model.") + said(tr, rl.Detail), Code: "rateLimited", Action: "pickModel"}
	case errors.As(err, &ctl):
		return Info{Message: contextTooLong(tr, ctl) + said(tr, ctl.Detail), Code: "contextTooLong", Action: "pickModel"}
	case errors.As(err, &rex):
		return Info{Message: tr("The model request failed %d times in a row. Last error: %s", rex.Attempts, attemptError(tr, rex.Last)), Code: "error", Action: "showLogs"}
	case errors.As(err, &api):
		// Some providers answer a bad key or an unknown model with a plain
		// 400 (Gemini's "API key not valid", DeepSeek's "Model Not Exist",
		// Zhipu's code 1211): read the provider's words for what to do.
		switch providers.Classify(api.Status, []byte(`{"message":`+strconv.Quote(api.Detail)+`}`)).Kind {
		case providers.KindAuth:
			return Info{Message: tr("The model endpoint %s rejected the API key (HTTP %d). Check the key and the base URL in GoVibe settings.", api.BaseURL, api.Status) + said(tr, api.Detail),
				Code: "auth", Action: "setApiKey"}
		case providers.KindUnknownModel:
			return Info{Message: tr("The model endpoint %s does not know this model: pick another with /model (govibe models list shows the ones it serves).", api.BaseURL) + said(tr, api.Detail),
				Code: "unknownModel", Action: "pickModel"}
		}
		return Info{Message: tr("The model endpoint %s answered HTTP %d.", api.BaseURL, api.Status) + said(tr, api.Detail), Code: "error", Action: "showLogs"}
	}
	return Info{Message: tr("The model request failed: %s", err.Error()), Code: "error", Action: "showLogs"}
}

// contextTooLong says how far over the window the request was, with the
// provider's counts when its error names them (else the profile's window),
// and the two ways out. The run has already compacted once and retried
// (overflow.go) by the time this reaches the user.
func contextTooLong(tr func(string, ...any) string, ctl *llm.ContextTooLongError) string {
	window, requested := providers.ContextCounts(ctl.Detail)
	if ctl.ProviderWindow > 0 {
		window, requested = ctl.ProviderWindow, ctl.Requested
	}
	if window == 0 {
		window = ctl.Window
	}
	switch {
	case window > 0 && requested > 0:
		return tr("This model's window is %s; the request was %s: compact the conversation (/compact) or pick a model with a larger window.", providers.KTokens(window), providers.KTokens(requested))
	case window > 0:
		return tr("The conversation no longer fits this model's %s window: compact it (/compact) or pick a model with a larger window.", providers.KTokens(window))
	}
	return tr("The conversation no longer fits the context window of %s: compact it (/compact) or pick a model with a larger window.", ctl.Model)
}

// said quotes the provider's own message, when it sent one.
func said(tr func(string, ...any) string, detail string) string {
	if detail == "" {
		return ""
	}
	return " " + tr("The provider said: %s", detail)
}

// attemptError words one failed attempt: GoVibe's reason in the user's
// language, then the underlying message (the provider's or the system's).
func attemptError(tr func(string, ...any) string, err error) string {
	var se *llm.StreamError
	if !errors.As(err, &se) {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	var reason string
	switch {
	case se.Status == 429:
		reason = tr("rate limited (HTTP 429)")
	case se.Status != 0:
		reason = tr("server error (HTTP %d)", se.Status)
	case se.Reason == "DNS lookup failed":
		reason = tr("DNS lookup failed")
	case se.Reason == "connect timed out":
		reason = tr("connect timed out")
	case se.Reason == "connection failed":
		reason = tr("connection failed")
	case se.Reason == "stream broke":
		reason = tr("the stream broke")
	case se.Reason == "stream ended before the model finished":
		reason = tr("the stream ended before the model finished")
	case strings.HasPrefix(se.Reason, "no data from the model for "):
		reason = tr("no data from the model for %s", strings.TrimPrefix(se.Reason, "no data from the model for "))
	default:
		reason = se.Reason
	}
	if se.Err != nil {
		return reason + ": " + se.Err.Error()
	}
	return reason
}
