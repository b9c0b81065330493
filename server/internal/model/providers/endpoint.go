package providers

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Endpoint is what list and probe talk to: a preset's conventions with the
// user's base URL (a region or a local port may differ) and key.
type Endpoint struct {
	Preset  Preset
	BaseURL string // empty means Preset.BaseURL
	APIKey  string
	HTTP    *http.Client // nil means a client with a 30 s timeout
}

func (e Endpoint) base() string {
	return strings.TrimRight(firstNonEmpty(e.BaseURL, e.Preset.BaseURL), "/")
}

func (e Endpoint) client() *http.Client {
	if e.HTTP != nil {
		return e.HTTP
	}
	// Listing and probing are one short request each; a hung endpoint must
	// not hang "Add Model".
	return &http.Client{Timeout: 30 * time.Second}
}

func (e Endpoint) newRequest(ctx context.Context, method, path string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, e.base()+path, body)
	if err != nil {
		return nil, fmt.Errorf("invalid base URL %q: %w", e.base(), err)
	}
	key := e.APIKey
	if key == "" && e.Preset.Local {
		key = "local"
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for k, v := range e.Preset.Headers {
		req.Header.Set(k, v)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// ListModels asks GET {base}/models and returns the model ids, sorted.
func (e Endpoint) ListModels(ctx context.Context) ([]string, error) {
	ids, _, err := e.listModels(ctx)
	return ids, err
}

// listModels is ListModels with the list's body, for the details some
// lists carry (list.go).
func (e Endpoint) listModels(ctx context.Context) ([]string, []byte, error) {
	path := firstNonEmpty(e.Preset.ModelsPath, "/models")
	req, err := e.newRequest(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := e.client().Do(req)
	if err != nil {
		return nil, nil, &Error{Kind: KindUnreachable, Detail: err.Error()}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if resp.StatusCode != http.StatusOK {
		return nil, nil, Classify(resp.StatusCode, body)
	}
	// OpenAI's shape is {"data":[{"id":…}]}; a few local servers answer a
	// bare array, and Ollama's native API uses "models" with "name".
	var ids []string
	root := gjson.ParseBytes(body)
	for _, path := range []string{"data.#.id", "#.id", "models.#.name", "models.#.id"} {
		for _, v := range root.Get(path).Array() {
			if s := v.String(); s != "" {
				ids = append(ids, s)
			}
		}
		if len(ids) > 0 {
			break
		}
	}
	if !gjson.ValidBytes(body) {
		return nil, nil, &Error{Kind: KindOther, Detail: "the models list is not JSON: " + snippet(body)}
	}
	sort.Strings(ids)
	return ids, body, nil
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
