package providers

import (
	"context"
	"errors"
	"net/http"

	"github.com/tidwall/gjson"
)

// Listed is one model an endpoint offers, with what its list and the
// preset's table say of it. Zero means unknown.
type Listed struct {
	ID               string
	ContextWindow    int
	MaxOutputTokens  int
	PriceInput       float64
	PriceCachedInput float64
	PriceOutput      float64
}

// listedWindowPaths are where model lists state a model's window: Groq's
// context_window, OpenRouter's and Together's context_length, vLLM's
// max_model_len (the limit the server was started with, which is what
// counts on a local server).
var listedWindowPaths = []string{"context_window", "context_length", "max_model_len"}

// listedOutputPaths: Groq's max_completion_tokens, OpenRouter's
// top_provider.max_completion_tokens.
var listedOutputPaths = []string{"max_completion_tokens", "top_provider.max_completion_tokens"}

// listedDetails reads what an OpenAI-shaped list says of each model.
func listedDetails(body []byte) map[string]gjson.Result {
	out := map[string]gjson.Result{}
	for _, m := range gjson.GetBytes(body, "data").Array() {
		if id := m.Get("id").String(); id != "" {
			out[id] = m
		}
	}
	return out
}

func firstInt(m gjson.Result, paths []string) int {
	for _, p := range paths {
		if n := m.Get(p).Int(); n > 0 {
			return int(n)
		}
	}
	return 0
}

// Models lists the endpoint's models with their windows: the list's own
// figure first (the deployment knows its limits), then the preset's table,
// which also fills in prices. When the endpoint has no usable list (404,
// 405 or 501, or an answer that is not JSON) and the preset knows models,
// those are returned with fromPreset set, so "Add Model" still offers a
// choice. A rejected key, a rate limit or an unreachable server is
// returned as the error it is: it must not look like a short list.
func (e Endpoint) Models(ctx context.Context) (models []Listed, fromPreset bool, err error) {
	ids, body, err := e.listModels(ctx)
	if err != nil {
		var pe *Error
		noList := errors.As(err, &pe) && (pe.Status == http.StatusNotFound || pe.Status == http.StatusMethodNotAllowed ||
			pe.Status == http.StatusNotImplemented || (pe.Kind == KindOther && pe.Status == 0))
		if !noList || len(e.Preset.Models) == 0 {
			return nil, false, err
		}
		for _, m := range e.Preset.Models {
			models = append(models, fromTable(m))
		}
		return models, true, nil
	}
	details := listedDetails(body)
	for _, id := range ids {
		l := Listed{ID: id}
		if m, ok := e.Preset.Model(id); ok {
			l = fromTable(m)
		}
		if d, ok := details[id]; ok {
			if w := firstInt(d, listedWindowPaths); w > 0 {
				l.ContextWindow = w
			}
			if o := firstInt(d, listedOutputPaths); o > 0 && (l.ContextWindow == 0 || o <= l.ContextWindow) {
				l.MaxOutputTokens = o
			}
		}
		models = append(models, l)
	}
	return models, false, nil
}

func fromTable(m Model) Listed {
	return Listed{ID: m.ID, ContextWindow: m.ContextWindow, MaxOutputTokens: m.MaxOutputTokens,
		PriceInput: m.PriceInput, PriceCachedInput: m.PriceCachedInput, PriceOutput: m.PriceOutput}
}
